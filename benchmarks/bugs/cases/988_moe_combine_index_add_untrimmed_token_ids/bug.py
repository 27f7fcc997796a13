import math

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class Top1MoE(nn.Module):
    def __init__(self, dim: int, n_experts: int, capacity_factor: float = 1.0):
        super().__init__()
        self.router = nn.Linear(dim, n_experts, bias=False)
        self.experts = nn.ModuleList(nn.Linear(dim, dim) for _ in range(n_experts))
        self.capacity_factor = capacity_factor

    def capacity(self, n_tokens: int) -> int:
        return math.ceil(self.capacity_factor * n_tokens / len(self.experts))

    def route(self, x: Float[Tensor, "t d"]) -> tuple[Int[Tensor, " t"], Float[Tensor, " t"]]:
        probs = self.router(x).softmax(-1)
        gate, choice = probs.max(-1)
        return choice, gate

    def forward(self, x: Float[Tensor, "t d"]) -> Float[Tensor, "t d"]:
        choice, gate = self.route(x)
        cap = self.capacity(x.shape[0])
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            token_ids: Int[Tensor, " n"] = (choice == e).nonzero().squeeze(-1)
            kept: Int[Tensor, " k"] = token_ids[:cap]
            y: Float[Tensor, "k d"] = expert(x[kept]) * gate[kept, None]
            out.index_add_(0, token_ids, y)
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = Top1MoE(dim=6, n_experts=3, capacity_factor=1.0)
    tokens = torch.randn(12, 6)
    print("tokens per expert:", torch.bincount(layer.route(tokens)[0], minlength=3).tolist(),
          "capacity:", layer.capacity(12))
    print(layer(tokens).shape)
