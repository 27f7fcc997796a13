import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class Expert(nn.Module):
    def __init__(self, dim: int, hidden: int):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))

    def forward(self, x: Float[Tensor, "n dim"]) -> Float[Tensor, "n dim"]:
        return self.net(x)


def route_top1(
    logits: Float[Tensor, "tokens experts"],
) -> tuple[Int[Tensor, "tokens"], Float[Tensor, "tokens"]]:
    probs = logits.softmax(dim=-1)
    gates, expert_idx = probs.max(dim=-1)
    return expert_idx, gates


def moe_combine(
    x: Float[Tensor, "tokens dim"],
    expert_idx: Int[Tensor, "tokens"],
    gates: Float[Tensor, "tokens"],
    experts: nn.ModuleList,
    capacity: int,
) -> Float[Tensor, "tokens dim"]:
    """Switch-style dispatch: each expert processes at most `capacity` tokens;
    overflow tokens are dropped (zero update, they keep their residual)."""
    out = torch.zeros_like(x)
    for e, expert in enumerate(experts):
        token_ids = (expert_idx == e).nonzero(as_tuple=True)[0]  # routed to expert e
        kept = token_ids[:capacity]                                # within capacity
        y = expert(x[kept]) * gates[kept].unsqueeze(-1)            # [kept, dim]
        out.index_add_(0, kept, y)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    dim, n_experts, tokens = 8, 2, 12
    experts = nn.ModuleList([Expert(dim, 16) for _ in range(n_experts)])
    x = torch.randn(tokens, dim)
    logits = torch.randn(tokens, n_experts)
    logits[:9, 0] += 5.0  # expert 0 is overloaded
    expert_idx, gates = route_top1(logits)
    h = x + moe_combine(x, expert_idx, gates, experts, capacity=6)
    with torch.no_grad():
        ref = x.clone()
        seen = [0] * n_experts
        for t in range(tokens):
            e = int(expert_idx[t])
            if seen[e] < 6:
                ref[t] = x[t] + experts[e](x[t:t + 1])[0] * gates[t]
            seen[e] += 1
    assert torch.allclose(h, ref, atol=1e-6)
    assert seen[0] > 6  # some tokens really were dropped
    print("ok")
