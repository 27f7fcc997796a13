import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LLaDAAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.att_proj = nn.Linear(d_model, 3 * d_model)
        self.attn_out = nn.Linear(d_model, d_model)

    def forward(self, x, layer_past=None, use_cache=False, replace_position=None):
        B, T, C = x.size()  # batch size, sequence length (block length when cached), d_model
        q, k, v = self.att_proj(x).split(C, dim=-1)
        hs = C // self.n_heads
        # shape: (B, nh, T, hs)
        q = q.view(B, T, self.n_heads, hs).transpose(1, 2)
        k = k.view(B, T, self.n_heads, hs).transpose(1, 2)
        v = v.view(B, T, self.n_heads, hs).transpose(1, 2)

        if layer_past is not None:
            past_key, past_value = layer_past
            if replace_position is None:
                k = torch.cat((past_key, k), dim=-2)
                v = torch.cat((past_value, v), dim=-2)
            else:
                # k shape is [B, nh, selected_length, hs]
                # replace_position shape is [B, L] with selected_length ones per row
                # past_key shape is [B, nh, L, hs]
                # process each row separately so its selected positions are not mixed with the others'
                for b in range(B):
                    replace_indices = replace_position[b].nonzero(as_tuple=True)[0]  # [selected_length]
                    past_key[b, :, replace_indices] = k[b]
                    past_value[b, :, replace_indices] = v[b]
                k = past_key
                v = past_value
        present = (k, v) if use_cache else None

        # LLaDA is a bidirectional mask predictor: no causal mask
        att = (q @ k.transpose(-1, -2)) / math.sqrt(hs)
        y = att.softmax(dim=-1) @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.attn_out(y), present


class LLaDAModel(nn.Module):
    def __init__(self, vocab_size, d_model, n_heads, max_len):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, d_model)
        self.wpe = nn.Embedding(max_len, d_model)
        self.attention = LLaDAAttention(d_model, n_heads)
        self.ln_f = nn.LayerNorm(d_model)
        self.ff_out = nn.Linear(d_model, vocab_size)

    def forward(self, input_ids, positions, past_key_values=None, use_cache=False, replace_position=None):
        x = self.wte(input_ids) + self.wpe(positions)
        h, present = self.attention(x, past_key_values, use_cache, replace_position)
        logits = self.ff_out(self.ln_f(x + h))
        return logits, present


def get_transfer_index(logits, mask_index, x, num_transfer_tokens):
    x0 = torch.argmax(logits, dim=-1)  # b, l
    p = F.softmax(logits.to(torch.float64), dim=-1)
    x0_p = torch.gather(p, dim=-1, index=x0.unsqueeze(-1)).squeeze(-1)  # b, l
    x0 = torch.where(mask_index, x0, x)
    confidence = torch.where(mask_index, x0_p, torch.tensor(-math.inf, dtype=x0_p.dtype))
    transfer_index = torch.zeros_like(x0, dtype=torch.bool)
    for j in range(confidence.shape[0]):
        _, select_index = torch.topk(confidence[j], k=num_transfer_tokens)
        transfer_index[j, select_index] = True
    return x0, transfer_index


@torch.no_grad()
def generate_with_dual_cache(model, prompt, mask_id, gen_length, block_length, steps_per_block):
    B = prompt.shape[0]
    x = torch.full((B, prompt.shape[1] + gen_length), mask_id, dtype=torch.long)
    x[:, : prompt.shape[1]] = prompt.clone()
    positions = torch.arange(x.shape[1]).expand(B, -1)
    num_blocks = gen_length // block_length
    per_step = block_length // steps_per_block
    for num_block in range(num_blocks):
        current_block_start = prompt.shape[1] + num_block * block_length
        current_block_end = current_block_start + block_length

        # cache init and update on the full sequence
        logits, past_key_values = model(x, positions, use_cache=True)
        mask_index = x == mask_id
        mask_index[:, current_block_end:] = False
        x0, transfer_index = get_transfer_index(logits, mask_index, x, per_step)
        x[transfer_index] = x0[transfer_index]

        replace_position = torch.zeros_like(x, dtype=torch.bool)
        replace_position[:, current_block_start:current_block_end] = True
        for _ in range(steps_per_block - 1):
            block = x[:, current_block_start:current_block_end]
            logits, _ = model(
                block,
                positions[:, current_block_start:current_block_end],
                past_key_values=past_key_values,
                use_cache=True,
                replace_position=replace_position,
            )
            mask_index = block == mask_id
            x0, transfer_index = get_transfer_index(logits, mask_index, block, per_step)
            x[:, current_block_start:current_block_end][transfer_index] = x0[transfer_index]
    return x


@torch.no_grad()
def reference_generate(model, prompt, mask_id, gen_length, block_length, steps_per_block):
    # no cache at all: every step recomputes the whole sequence, one prompt at a time
    outs = []
    for row in prompt:
        x = torch.full((1, prompt.shape[1] + gen_length), mask_id, dtype=torch.long)
        x[0, : prompt.shape[1]] = row
        positions = torch.arange(x.shape[1]).unsqueeze(0)
        per_step = block_length // steps_per_block
        for num_block in range(gen_length // block_length):
            start = prompt.shape[1] + num_block * block_length
            end = start + block_length
            for _ in range(steps_per_block):
                logits, _ = model(x, positions)
                probs = logits.double().softmax(-1)[0]
                candidates = []
                for pos in range(start, end):
                    if x[0, pos].item() == mask_id:
                        tok = int(torch.argmax(logits[0, pos]))
                        candidates.append((probs[pos, tok].item(), pos, tok))
                candidates.sort(key=lambda c: -c[0])
                for _, pos, tok in candidates[:per_step]:
                    x[0, pos] = tok
        outs.append(x[0])
    return torch.stack(outs)


if __name__ == "__main__":
    torch.manual_seed(0)
    MASK = 63
    model = LLaDAModel(vocab_size=64, d_model=32, n_heads=4, max_len=32).eval()
    prompts = torch.tensor([[5, 9, 12, 7], [3, 3, 8, 20]])
    out = generate_with_dual_cache(model, prompts, MASK, gen_length=8, block_length=4, steps_per_block=2)
    expected = reference_generate(model, prompts, MASK, gen_length=8, block_length=4, steps_per_block=2)
    assert torch.equal(out, expected), (out, expected)
    assert (out != MASK).all()
    print("ok")
