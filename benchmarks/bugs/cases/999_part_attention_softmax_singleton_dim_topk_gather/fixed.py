import torch
import torch.nn as nn
import torch.nn.functional as F


class PartSelector(nn.Module):
    def __init__(self, part_dim=32, keep=3):
        super().__init__()
        self.score = nn.Linear(part_dim, 1)
        self.keep = keep

    def forward(self, parts):
        attn = F.softmax(self.score(parts), dim=1)
        weights = attn.squeeze(-1)
        top_w, top_idx = weights.topk(self.keep, dim=1)
        idx = top_idx.unsqueeze(-1).expand(-1, -1, parts.shape[-1])
        kept = parts.gather(1, idx)
        pooled = (kept * top_w.unsqueeze(-1)).sum(1) / top_w.sum(1, keepdim=True)
        return pooled, top_idx


torch.manual_seed(0)
selector = PartSelector(part_dim=32, keep=3)
parts = torch.randn(4, 10, 32)
with torch.no_grad():
    pooled, chosen = selector(parts)
with torch.no_grad():
    raw = selector.score(parts).squeeze(-1)
for b in range(4):
    e = [float(torch.exp(raw[b, i] - raw[b].max())) for i in range(10)]
    w = [v / sum(e) for v in e]
    order = sorted(range(10), key=lambda i: -w[i])[:3]
    assert [int(c) for c in chosen[b]] == order
    ref = sum(w[i] * parts[b, i] for i in order) / sum(w[i] for i in order)
    assert torch.allclose(pooled[b], ref, atol=1e-5)
print("ok")
