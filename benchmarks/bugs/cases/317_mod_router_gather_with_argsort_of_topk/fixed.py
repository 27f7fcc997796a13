from __future__ import annotations

from typing import TYPE_CHECKING

import torch
import torch.nn as nn
from torch import Tensor

if TYPE_CHECKING:
    from jaxtyping import Float, Int


class MoDBlock(nn.Module):
    """Mixture-of-Depths block: only the top-k tokens (by router score) go through the layer."""

    def __init__(self, dim: int, capacity: float):
        super().__init__()
        self.capacity = capacity
        self.router = nn.Linear(dim, 1)
        self.layer = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))

    def route(self, x: Float[Tensor, "b s d"]) -> tuple[Int[Tensor, "b k"], Float[Tensor, "b k"]]:
        b, s, d = x.shape
        k = int(self.capacity * s)
        weights = self.router(x).squeeze(-1)                    # (b, s)
        topk_weights, topk_indices = weights.topk(k, dim=1)     # (b, k) in score order
        sorted_indices, order = torch.sort(topk_indices, dim=1)
        return sorted_indices, topk_weights.gather(1, order)

    def forward(self, x: Float[Tensor, "b s d"]) -> Float[Tensor, "b s d"]:
        b, s, d = x.shape
        sorted_indices, r_weights = self.route(x)
        gather_idx = sorted_indices.unsqueeze(-1).expand(-1, -1, d)
        selected = x.gather(1, gather_idx)                       # (b, k, d) in sequence order
        processed = self.layer(selected) * r_weights.sigmoid().unsqueeze(-1)
        return x.scatter_add(1, gather_idx, processed)


def main():
    torch.manual_seed(0)
    block = MoDBlock(dim=16, capacity=0.25)
    x = torch.randn(2, 16, 16)
    with torch.no_grad():
        out = block(x)
        weights = block.router(x).squeeze(-1)
        chosen = weights.topk(4, dim=1).indices.sort(dim=1).values
    ref = x.clone()
    with torch.no_grad():
        for b in range(2):
            for pos in chosen[b].tolist():
                ref[b, pos] = x[b, pos] + block.layer(x[b, pos]) * weights[b, pos].sigmoid()
    assert torch.allclose(out, ref, atol=1e-6)
    print("ok")


if __name__ == "__main__":
    main()
