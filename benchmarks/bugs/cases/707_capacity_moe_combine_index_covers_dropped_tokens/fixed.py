from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class MoEConfig:
    dim: int = 8
    num_experts: int = 4
    capacity: int = 3


class CapacityMoE(nn.Module):
    """Top-1 mixture of experts with a fixed per-expert token capacity."""

    def __init__(self, cfg: MoEConfig):
        super().__init__()
        self.cfg = cfg
        self.router = nn.Linear(cfg.dim, cfg.num_experts, bias=False)
        self.experts = nn.ModuleList(nn.Linear(cfg.dim, cfg.dim) for _ in range(cfg.num_experts))

    def forward(self, x):
        """
        Args:
            x (Tensor): tokens of shape (T, dim).

        Returns:
            Tensor: shape (T, dim); tokens over an expert's capacity get zeros.
        """
        probs = self.router(x).softmax(-1)
        weight, expert = probs.max(-1)
        order = torch.argsort(expert, stable=True)
        chunks, kept = [], []
        for k, ffn in enumerate(self.experts):
            ids = order[expert[order] == k][: self.cfg.capacity]
            chunks.append(ffn(x[ids]) * weight[ids, None])
            kept.append(ids)
        expert_out = torch.cat(chunks)
        index = torch.cat(kept).unsqueeze(1).expand(-1, x.size(1))
        return torch.zeros_like(x).scatter_add_(0, index, expert_out)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = MoEConfig()
    moe = CapacityMoE(cfg)
    tokens = torch.randn(16, cfg.dim)
    with torch.no_grad():
        got = moe(tokens)
        probs = moe.router(tokens).softmax(-1)
        ref = torch.zeros_like(tokens)
        used = [0] * cfg.num_experts
        for t in range(tokens.size(0)):
            k = int(probs[t].argmax())
            if used[k] < cfg.capacity:
                used[k] += 1
                ref[t] = moe.experts[k](tokens[t]) * probs[t, k]
    assert torch.allclose(got, ref, atol=1e-6)
    print("ok")
