from typing import Tuple

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class GroupLimitedRouter(nn.Module):
    """Sigmoid router that first keeps the best expert groups, then the best experts inside them."""

    def __init__(self, hidden: int, n_experts: int = 16, n_groups: int = 4, topk_group: int = 2, top_k: int = 4):
        super().__init__()
        self.gate = nn.Linear(hidden, n_experts, bias=False)
        self.n_groups, self.topk_group, self.top_k = n_groups, topk_group, top_k

    def forward(self, x: Float[Tensor, "tokens hidden"]) -> Tuple[Float[Tensor, "tokens k"], Int[Tensor, "tokens k"]]:
        n_tok = x.size(0)
        scores: Float[Tensor, "tokens experts"] = self.gate(x).sigmoid()
        grouped: Float[Tensor, "tokens groups per_group"] = scores.view(n_tok, self.n_groups, -1)
        group_scores: Float[Tensor, "tokens groups"] = grouped.topk(2, dim=-1).values.sum(-1)
        group_idx: Int[Tensor, "tokens topk_group"] = group_scores.topk(self.topk_group, dim=-1).indices
        group_mask: Float[Tensor, "tokens groups"] = torch.zeros_like(group_scores)
        group_mask.scatter_(1, group_idx, group_scores.new_ones(n_tok, 1))
        expert_mask = group_mask.repeat_interleave(scores.size(1) // self.n_groups, dim=1)
        masked: Float[Tensor, "tokens experts"] = scores.masked_fill(expert_mask == 0, 0.0)
        weights, experts = masked.topk(self.top_k, dim=-1)
        return weights / weights.sum(-1, keepdim=True), experts


if __name__ == "__main__":
    torch.manual_seed(0)
    router = GroupLimitedRouter(hidden=32)
    tokens = torch.randn(6, 32)
    weights, experts = router(tokens)
    print("experts per token:", experts.tolist())
