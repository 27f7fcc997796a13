import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def topkgating(logits: torch.Tensor, k: int, capacity_factor: float, min_capacity: int):
    """Top-k gating with a per-expert capacity ('probs' drop policy).

    Args:
        logits (`torch.Tensor` of shape `(num_tokens, num_experts)`):
            Router logits for each token.
        k (`int`):
            Number of experts each token is routed to.
        capacity_factor (`float`):
            Multiplier on the balanced load `k * num_tokens / num_experts`.
        min_capacity (`int`):
            Lower bound on the number of tokens an expert accepts.

    Returns:
        combine (`torch.Tensor` of shape `(num_tokens, num_experts)`):
            Normalized gate weights of the routes that survive the capacity drop.
        mask (`torch.BoolTensor` of shape `(num_tokens, num_experts)`):
            Routes kept after dropping the lowest-probability tokens of overloaded experts.
    """
    top_gate, top_idx = torch.topk(logits, k=k, dim=1)
    gates = F.softmax(logits, dim=1)
    num_tokens, num_experts = gates.shape

    topk_masked_gates = torch.zeros_like(logits).scatter(1, top_idx, top_gate)
    mask = torch.zeros_like(gates, dtype=torch.bool).scatter_(1, top_idx, True)

    capacity = max(min_capacity, math.ceil(k * num_tokens / num_experts * capacity_factor))
    capacity = min(capacity, num_tokens)
    _, capacity_indices = torch.topk(topk_masked_gates, k=capacity, dim=0, sorted=False)
    capacity_mask = torch.zeros_like(mask).scatter_(0, capacity_indices, True)
    mask = mask & capacity_mask

    combine = gates * mask
    combine = combine / combine.sum(dim=-1, keepdim=True).clamp(min=torch.finfo(combine.dtype).eps)
    return combine, mask


class TopKGate(nn.Module):
    def __init__(self, model_dim: int, num_experts: int, k: int = 2, capacity_factor: float = 1.0, min_capacity: int = 4):
        super().__init__()
        self.wg = nn.Linear(model_dim, num_experts, bias=True)
        self.k = k
        self.capacity_factor = capacity_factor
        self.min_capacity = min_capacity

    def forward(self, x: torch.Tensor):
        logits = self.wg(x.float())
        return topkgating(logits, self.k, self.capacity_factor, self.min_capacity)


def reference_keep(logits, k, capacity):
    probs = logits.softmax(-1)
    n, e = probs.shape
    routed = [[False] * e for _ in range(n)]
    for t in range(n):
        for j in probs[t].topk(k).indices.tolist():
            routed[t][j] = True
    keep = [[False] * e for _ in range(n)]
    for j in range(e):
        cand = sorted([t for t in range(n) if routed[t][j]], key=lambda t: -probs[t, j].item())
        for t in cand[:capacity]:
            keep[t][j] = True
    return torch.tensor(keep)


if __name__ == "__main__":
    torch.manual_seed(0)
    gate = TopKGate(model_dim=16, num_experts=8, k=2, capacity_factor=1.0)
    with torch.no_grad():
        gate.wg.bias.fill_(-1.5)
    x = torch.randn(32, 16)
    combine, mask = gate(x)
    logits = gate.wg(x)
    ref = reference_keep(logits, k=2, capacity=8)
    print("routes kept:", int(mask.sum()), "reference:", int(ref.sum()))
    print("tokens left with no expert:", int((mask.sum(-1) == 0).sum()))
