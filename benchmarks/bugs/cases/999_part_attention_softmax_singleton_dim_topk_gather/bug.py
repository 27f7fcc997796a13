import torch
import torch.nn as nn
import torch.nn.functional as F


class PartSelector(nn.Module):
    def __init__(self, part_dim=32, keep=3):
        super().__init__()
        self.score = nn.Linear(part_dim, 1)
        self.keep = keep

    def forward(self, parts):
        attn = F.softmax(self.score(parts), dim=2)
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
print("chosen parts per image:", chosen.tolist())
print("pooled", pooled.shape, pooled.norm().item())
