import math

import torch
import torch.nn.functional as F
from torch import nn


def exists(val):
    return val is not None


def log(t, eps=1e-20):
    return torch.log(t.clamp(min=eps))


def gumbel_noise(t):
    noise = torch.zeros_like(t).uniform_(0, 1)
    return -log(-log(noise))


def gumbel_sample(t, temperature=1., dim=-1):
    return ((t / max(temperature, 1e-10)) + gumbel_noise(t)).argmax(dim=dim)


def top_k(logits, thres=0.9):
    k = math.ceil((1 - thres) * logits.shape[-1])
    val, ind = logits.topk(k, dim=-1)
    probs = torch.full_like(logits, float('-inf'))
    probs.scatter_(2, ind, val)
    return probs


class TokenTransformer(nn.Module):
    def __init__(self, *, num_tokens, seq_len, dim):
        super().__init__()
        self.mask_id = num_tokens
        self.token_emb = nn.Embedding(num_tokens + 1, dim)
        self.pos_emb = nn.Embedding(seq_len, dim)
        self.to_logits = nn.Linear(dim, num_tokens)

    def forward(self, x):
        n = x.shape[1]
        x = self.token_emb(x) + self.pos_emb(torch.arange(n, device=x.device))
        return self.to_logits(torch.tanh(x))


@torch.no_grad()
def generate_step(transformer, ids, temperature=1., topk_filter_thres=0.9):
    logits = transformer(ids)
    filtered_logits = top_k(logits, topk_filter_thres)
    pred_ids = gumbel_sample(filtered_logits, temperature=temperature, dim=-1)
    is_mask = ids == transformer.mask_id
    return torch.where(is_mask, pred_ids, ids), filtered_logits


if __name__ == "__main__":
    torch.manual_seed(0)
    transformer = TokenTransformer(num_tokens=256, seq_len=16, dim=32)
    ids = torch.full((2, 16), transformer.mask_id, dtype=torch.long)
    new_ids, filtered = generate_step(transformer, ids)
    logits = transformer(ids)
    k = math.ceil(0.1 * 256)
    for b in range(logits.shape[0]):
        for n in range(logits.shape[1]):
            row = logits[b, n].tolist()
            top = sorted(range(len(row)), key=lambda j: -row[j])[:k]
            for j in range(len(row)):
                expected = row[j] if j in top else float('-inf')
                assert filtered[b, n, j].item() == expected, (b, n, j)
            assert new_ids[b, n].item() in top
    print("ok")
