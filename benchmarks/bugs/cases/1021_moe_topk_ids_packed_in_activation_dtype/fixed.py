import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def select_experts(
    probs: Float[Tensor, "tokens experts"], k: int
) -> tuple[Float[Tensor, "tokens k"], Int[Tensor, "tokens k"]]:
    weights, idx = torch.topk(probs, k, dim=-1)
    weights = weights / weights.sum(dim=-1, keepdim=True)
    # expert ids stay int64: never round-trip them through the activation dtype
    return weights, idx


class SparseMoE(nn.Module):
    def __init__(self, hidden: int, num_experts: int, top_k: int):
        super().__init__()
        self.top_k = top_k
        self.router = nn.Linear(hidden, num_experts, bias=False)
        self.experts = nn.Parameter(torch.randn(num_experts, hidden, hidden) * 0.1)
        self.expert_bias = nn.Parameter(torch.randn(num_experts, hidden) * 0.1)

    def forward(self, x: Float[Tensor, "tokens hidden"]) -> Float[Tensor, "tokens hidden"]:
        probs = self.router(x).softmax(dim=-1)
        weights, expert_ids = select_experts(probs, self.top_k)
        w = self.experts[expert_ids]
        b = self.expert_bias[expert_ids]
        out = torch.einsum("th,tkhd->tkd", x, w) + b
        return (out * weights.unsqueeze(-1)).sum(dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    moe = SparseMoE(hidden=16, num_experts=8, top_k=2)
    tokens = torch.randn(10, 16)
    with torch.no_grad():
        y = moe(tokens)
        probs = moe.router(tokens).softmax(dim=-1)
        ref = torch.zeros_like(y)
        for t in range(tokens.shape[0]):
            order = sorted(range(8), key=lambda e: -probs[t, e].item())[:2]
            total = sum(probs[t, e].item() for e in order)
            for e in order:
                ref[t] += probs[t, e] / total * (tokens[t] @ moe.experts[e] + moe.expert_bias[e])
    assert torch.allclose(y, ref, atol=1e-5)
    print("ok")
