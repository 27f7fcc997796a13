from typing import List

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDecoder(nn.Module):
    def __init__(self, vocab_size: int, dim: int, max_seq_len: int):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab_size, dim)
        self.pos_embeddings = nn.Embedding(max_seq_len, dim)
        self.norm = nn.LayerNorm(dim)
        self.output = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, tokens: torch.Tensor, start_pos: int) -> torch.Tensor:
        pos = torch.arange(start_pos, start_pos + tokens.shape[1])
        h = self.tok_embeddings(tokens) + self.pos_embeddings(pos)
        return self.output(self.norm(h)).float()


class Generator:
    def __init__(self, model: TinyDecoder, pad_id: int, eos_id: int):
        self.model = model
        self.pad_id = pad_id
        self.eos_id = eos_id

    @torch.inference_mode()
    def generate(self, prompt_tokens: List[List[int]], max_gen_len: int, logprobs: bool = False):
        bsz = len(prompt_tokens)
        min_prompt_len = min(len(t) for t in prompt_tokens)
        max_prompt_len = max(len(t) for t in prompt_tokens)
        total_len = max_gen_len + max_prompt_len
        pad_id = self.pad_id
        tokens = torch.full((bsz, total_len), pad_id, dtype=torch.long)
        for k, t in enumerate(prompt_tokens):
            tokens[k, : len(t)] = torch.tensor(t, dtype=torch.long)
        token_logprobs = torch.zeros_like(tokens, dtype=torch.float)

        prev_pos = 0
        eos_reached = torch.tensor([False] * bsz)
        input_text_mask = tokens != pad_id
        for cur_pos in range(min_prompt_len, total_len):
            logits = self.model.forward(tokens[:, prev_pos:cur_pos], prev_pos)
            if logprobs:
                token_logprobs[:, prev_pos + 1 : cur_pos + 1] = -F.cross_entropy(
                    input=logits.transpose(1, 2),
                    target=tokens[:, prev_pos + 1 : cur_pos + 1],
                    reduction="none",
                    ignore_index=pad_id,
                )
            next_token = torch.argmax(logits[:, -1], dim=-1).reshape(-1)
            # keep prompt tokens where the prompt is longer than cur_pos
            next_token = torch.where(input_text_mask[:, cur_pos], tokens[:, cur_pos], next_token)
            tokens[:, cur_pos] = next_token
            eos_reached |= (~input_text_mask[:, cur_pos]) & (next_token == self.eos_id)
            prev_pos = cur_pos
            if all(eos_reached):
                break

        out_tokens, out_logprobs = [], []
        for i, toks in enumerate(tokens.tolist()):
            start = len(prompt_tokens[i])
            out_tokens.append(toks[start : start + max_gen_len])
            out_logprobs.append(token_logprobs[i, start : start + max_gen_len].tolist())
        return out_tokens, out_logprobs


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyDecoder(vocab_size=40, dim=32, max_seq_len=64).eval()
    gen = Generator(model, pad_id=-1, eos_id=39)
    prompts = [[5, 12, 7, 30], [9, 3, 22, 17, 8, 1]]
    toks, lps = gen.generate(prompts, max_gen_len=5, logprobs=True)
    # reference: log p(token_t | tokens_<t) for every generated token, recomputed from scratch
    for b, (p, gen_toks) in enumerate(zip(prompts, toks)):
        seq = torch.tensor([p + gen_toks])
        with torch.no_grad():
            lp = model(seq, 0).log_softmax(-1)[0]
        ref = [lp[len(p) + j - 1, gen_toks[j]].item() for j in range(len(gen_toks))]
        print(f"seq {b} returned logprobs:", [round(v, 3) for v in lps[b]])
        print(f"seq {b} reference       :", [round(v, 3) for v in ref])
