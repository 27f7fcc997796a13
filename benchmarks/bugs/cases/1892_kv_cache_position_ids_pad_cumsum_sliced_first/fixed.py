import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.Wqkv = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x, past_key_value, attention_mask):
        b, s, d = x.shape
        q, k, v = self.Wqkv(x).chunk(3, dim=-1)
        if past_key_value is not None:
            k = torch.cat([past_key_value[0], k], dim=1)
            v = torch.cat([past_key_value[1], v], dim=1)
        past_key_value = (k, v)
        h = self.n_heads
        q = q.view(b, s, h, d // h).transpose(1, 2)
        kh = k.view(b, k.shape[1], h, d // h).transpose(1, 2)
        vh = v.view(b, v.shape[1], h, d // h).transpose(1, 2)
        scores = q @ kh.transpose(-1, -2) / math.sqrt(d // h)
        t = kh.shape[2]
        causal = torch.ones(s, t, dtype=torch.bool).tril(diagonal=t - s)
        keep = causal[None, None] & attention_mask[:, None, None, :]
        scores = scores.masked_fill(~keep, torch.finfo(scores.dtype).min)
        out = (scores.softmax(dim=-1) @ vh).transpose(1, 2).reshape(b, s, d)
        return self.out_proj(out), past_key_value


class MosaicGPT(nn.Module):
    def __init__(self, vocab_size, d_model, n_heads, max_seq_len):
        super().__init__()
        self.max_seq_len = max_seq_len
        self.wte = nn.Embedding(vocab_size, d_model)
        self.wpe = nn.Embedding(max_seq_len, d_model)
        self.attn = CachedSelfAttention(d_model, n_heads)
        self.ln_f = nn.LayerNorm(d_model)

    def forward(self, input_ids, attention_mask, past_key_values=None):
        S = input_ids.size(1)
        tok_emb = self.wte(input_ids)
        past_position = 0
        if past_key_values is not None:
            past_position = past_key_values[0].size(1)
        if S + past_position > self.max_seq_len:
            raise ValueError("sequence longer than max_seq_len")
        pos = torch.arange(past_position, S + past_position, dtype=torch.long, device=input_ids.device).unsqueeze(0)
        # left padding: shift positions so the first real token of each row gets position 0
        pos = torch.clamp(pos - torch.cumsum((~attention_mask).to(torch.int32), dim=1)[:, past_position:], min=0)
        pos_emb = self.wpe(pos)
        x = tok_emb + pos_emb
        h, past_key_values = self.attn(x, past_key_values, attention_mask)
        logits = self.ln_f(x + h) @ self.wte.weight.T
        return logits, past_key_values

    @torch.no_grad()
    def greedy_step(self, input_ids, attention_mask, steps):
        logits, past = self(input_ids, attention_mask)
        all_logits = [logits[:, -1]]
        next_tok = logits[:, -1].argmax(dim=-1, keepdim=True)
        for _ in range(steps):
            attention_mask = torch.cat([attention_mask, torch.ones_like(next_tok, dtype=torch.bool)], dim=1)
            logits, past = self(next_tok, attention_mask, past)
            all_logits.append(logits[:, -1])
            next_tok = logits[:, -1].argmax(dim=-1, keepdim=True)
        return torch.stack(all_logits, dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MosaicGPT(vocab_size=50, d_model=32, n_heads=4, max_seq_len=32)
    pad = 0
    prompts = [[7, 3, 9, 4, 11, 2], [5, 8, 6]]
    width = max(len(p) for p in prompts)
    input_ids = torch.tensor([[pad] * (width - len(p)) + p for p in prompts])
    attention_mask = torch.tensor([[False] * (width - len(p)) + [True] * len(p) for p in prompts])
    seen = []
    model.wpe.register_forward_hook(lambda m, inp, out: seen.append(inp[0].clone()))
    batched = model.greedy_step(input_ids, attention_mask, steps=3)
    # positions must count only the real tokens before each step
    for row, p in enumerate(prompts):
        n_pad = width - len(p)
        expected_prefill = [0] * n_pad + list(range(len(p)))
        assert seen[0][row].tolist() == expected_prefill
        for step in range(1, 4):
            assert seen[step][row].tolist() == [len(p) + step - 1]
    for row, p in enumerate(prompts):
        alone = model.greedy_step(torch.tensor([p]), torch.ones(1, len(p), dtype=torch.bool), steps=3)
        assert torch.allclose(batched[row], alone[0], atol=1e-4)
    print("ok")
