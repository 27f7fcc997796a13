import torch
from jaxtyping import Float, Int
from torch import Tensor


def grouped_topk(
    router_logits: Float[Tensor, "num_tokens num_experts"],
    correction_bias: Float[Tensor, "num_experts"],
    top_k: int,
    num_expert_group: int,
    topk_group: int,
) -> tuple[Float[Tensor, "num_tokens top_k"], Int[Tensor, "num_tokens top_k"]]:
    num_tokens, num_experts = router_logits.shape
    scores = router_logits.sigmoid()
    scores_for_choice = scores + correction_bias.unsqueeze(0)
    group_scores = (
        scores_for_choice.view(num_tokens, num_expert_group, -1).topk(2, dim=-1).values.sum(dim=-1)
    )
    group_idx = torch.topk(group_scores, k=topk_group, dim=-1, sorted=False).indices
    group_mask = torch.zeros_like(group_scores).scatter_(1, group_idx, 1)
    score_mask = (
        group_mask.unsqueeze(-1)
        .expand(num_tokens, num_expert_group, num_experts // num_expert_group)
        .reshape(num_tokens, -1)
    )
    tmp_scores = scores_for_choice.masked_fill(~score_mask.bool(), float("-inf"))
    topk_ids = torch.topk(tmp_scores, k=top_k, dim=-1, sorted=False).indices
    topk_weights = scores.gather(1, topk_ids)
    topk_weights = topk_weights / topk_weights.sum(dim=-1, keepdim=True)
    return topk_weights, topk_ids


def reference_ids(logits, bias, top_k, n_group, topk_group):
    out = []
    per_group = logits.shape[1] // n_group
    for row in range(logits.shape[0]):
        choice = [float(torch.sigmoid(logits[row, e]) + bias[e]) for e in range(logits.shape[1])]
        gscore = []
        for g in range(n_group):
            vals = sorted(choice[g * per_group:(g + 1) * per_group], reverse=True)
            gscore.append(vals[0] + vals[1])
        keep = sorted(range(n_group), key=lambda g: -gscore[g])[:topk_group]
        allowed = [e for e in range(logits.shape[1]) if e // per_group in keep]
        out.append(set(sorted(allowed, key=lambda e: -choice[e])[:top_k]))
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    num_tokens, num_experts, n_group, topk_group, top_k = 6, 32, 8, 3, 4
    router_logits = torch.randn(num_tokens, num_experts)
    correction_bias = torch.full((num_experts,), -0.9) + 0.05 * torch.randn(num_experts)
    weights, ids = grouped_topk(router_logits, correction_bias, top_k, n_group, topk_group)
    ref = reference_ids(router_logits, correction_bias, top_k, n_group, topk_group)
    wrong = sum(len(set(ids[t].tolist()) - ref[t]) for t in range(num_tokens))
    assert wrong == 0, wrong
    assert torch.allclose(weights.sum(-1), torch.ones(num_tokens))
    print("ok")
