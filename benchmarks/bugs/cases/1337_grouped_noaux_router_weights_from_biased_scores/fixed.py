from typing import TypedDict

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class RouterResults(TypedDict):
    logits: Float[Tensor, "tokens experts"]
    router_weights: Float[Tensor, "tokens experts"]
    topk_weights: Float[Tensor, "tokens k"]
    topk_ids: Int[Tensor, "tokens k"]


class NoAuxGroupedRouter(nn.Module):
    """Sigmoid router with aux-loss-free balancing (DeepSeek-V3 style).

    The correction bias only steers *which* experts are chosen; the combine weights are the
    plain sigmoid scores of the chosen experts.
    """

    def __init__(self, n_routed_experts: int, top_k: int, n_groups: int, scaling_factor: float = 2.5):
        super().__init__()
        assert n_routed_experts % n_groups == 0 and top_k % n_groups == 0
        self.n_routed_experts = n_routed_experts
        self.top_k = top_k
        self.n_groups = n_groups
        self.scaling_factor = scaling_factor
        self.register_buffer("e_score_correction_bias", torch.zeros(n_routed_experts))

    def forward(self, logits: Float[Tensor, "tokens experts"]) -> RouterResults:
        seq = logits.shape[0]
        scores: Float[Tensor, "tokens experts"] = logits.sigmoid()
        scores_for_choice: Float[Tensor, "tokens experts"] = scores + self.e_score_correction_bias.unsqueeze(0)

        group_size = self.n_routed_experts // self.n_groups
        grouped: Float[Tensor, "tokens groups group_size"] = scores_for_choice.view(seq, self.n_groups, group_size)
        local_idx: Int[Tensor, "tokens groups k_per_group"] = torch.topk(grouped, k=self.top_k // self.n_groups, dim=2)[1]
        offsets: Int[Tensor, "1 groups 1"] = (torch.arange(self.n_groups) * group_size).view(1, -1, 1)
        topk_idx: Int[Tensor, "tokens k"] = (local_idx + offsets).view(seq, -1)
        topk_weight: Float[Tensor, "tokens k"] = scores.gather(1, topk_idx)

        router_weights = scores_for_choice / scores_for_choice.sum(dim=-1, keepdim=True)
        topk_weight = topk_weight / (topk_weight.sum(dim=-1, keepdim=True) + 1e-20)
        topk_weight = topk_weight * self.scaling_factor
        return {"logits": logits, "router_weights": router_weights, "topk_weights": topk_weight, "topk_ids": topk_idx}


if __name__ == "__main__":
    torch.manual_seed(0)
    router = NoAuxGroupedRouter(n_routed_experts=16, top_k=4, n_groups=2)
    router.e_score_correction_bias.copy_(torch.linspace(-0.3, 0.3, 16))  # as learned by the balancing update
    logits = torch.randn(6, 16)
    out = router(logits)

    scores = logits.sigmoid()
    bias = router.e_score_correction_bias
    for t in range(6):
        chosen = []
        for g in range(2):
            members = list(range(g * 8, (g + 1) * 8))
            members.sort(key=lambda e: scores[t, e].item() + bias[e].item(), reverse=True)
            chosen += members[:2]
        assert sorted(chosen) == sorted(out["topk_ids"][t].tolist())
        raw = [scores[t, e].item() for e in out["topk_ids"][t].tolist()]
        ref = torch.tensor([2.5 * r / sum(raw) for r in raw])
        assert torch.allclose(out["topk_weights"][t], ref, atol=1e-6)
    print("ok")
