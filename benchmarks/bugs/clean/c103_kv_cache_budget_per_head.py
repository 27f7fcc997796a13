import math

import torch
import torch.nn as nn


class BudgetedAttention(nn.Module):
    """Keeps the most-attended prompt tokens of every head, then attends over the kept cache."""

    def __init__(self, dim, heads, budget):
        super().__init__()
        self.heads = heads
        self.budget = budget
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)

    def split(self, x):
        b, t, d = x.shape
        return x.view(b, t, self.heads, d // self.heads).transpose(1, 2)

    def compress(self, q, k, v):
        probs = (q @ k.transpose(-1, -2) / math.sqrt(q.size(-1))).softmax(dim=-1)
        keep = probs.sum(dim=2).topk(self.budget, dim=-1).indices.sort(dim=-1).values
        index = keep.unsqueeze(-1).expand(-1, -1, -1, k.size(-1))
        return k.gather(2, index), v.gather(2, index), keep

    def forward(self, prompt, new_token):
        q, k, v = (self.split(t) for t in self.qkv(prompt).chunk(3, dim=-1))
        k_small, v_small, keep = self.compress(q, k, v)
        q_new = self.split(self.qkv(new_token).chunk(3, dim=-1)[0])
        weights = (q_new @ k_small.transpose(-1, -2) / math.sqrt(q_new.size(-1))).softmax(dim=-1)
        return weights @ v_small, keep


if __name__ == "__main__":
    torch.manual_seed(0)
    attn = BudgetedAttention(dim=32, heads=4, budget=6)
    prompt = torch.randn(2, 20, 32)
    new_token = torch.randn(2, 1, 32)
    out, keep = attn(prompt, new_token)
    q, k, v = (attn.split(t) for t in attn.qkv(prompt).chunk(3, dim=-1))
    q_new = attn.split(attn.qkv(new_token).chunk(3, dim=-1)[0])
    for b in range(2):
        for h in range(4):
            ks, vs = k[b, h, keep[b, h]], v[b, h, keep[b, h]]
            w = (q_new[b, h] @ ks.T / math.sqrt(8)).softmax(-1)
            assert torch.allclose(out[b, h], w @ vs, atol=1e-5)
    print("ok")
