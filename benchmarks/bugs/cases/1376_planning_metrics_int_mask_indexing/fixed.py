import torch
from jaxtyping import Bool, Float, Int
from torch import Tensor


STRATEGIC_PHRASES = [[11, 12], [21, 22, 23]]


def mark_planning_tokens(completion_ids: Int[Tensor, "batch seq"]) -> Bool[Tensor, "batch seq"]:
    mask = torch.zeros_like(completion_ids, dtype=torch.bool)
    for phrase in STRATEGIC_PHRASES:
        n = len(phrase)
        windows = completion_ids.unfold(1, n, 1)
        hit = (windows == torch.tensor(phrase)).all(-1)
        for k in range(n):
            mask[:, k:k + hit.size(1)] |= hit
    return mask


def planning_advantage_stats(
    advantages: Float[Tensor, "batch seq"],
    planning_mask: Bool[Tensor, "batch seq"],
    response_mask: Int[Tensor, "batch seq"],
) -> dict[str, float]:
    response_mask = response_mask.bool()
    n_valid = response_mask.sum().clamp(min=1)
    ratio = (planning_mask & response_mask).sum() / n_valid
    planning_adv = advantages[planning_mask & response_mask]
    execution_adv = advantages[~planning_mask & response_mask]
    return {
        "planning_token_ratio": ratio.item(),
        "planning_advantage_mean": planning_adv.mean().item(),
        "execution_advantage_mean": execution_adv.mean().item(),
    }


if __name__ == "__main__":
    torch.manual_seed(0)
    completion_ids = torch.randint(30, 60, (4, 10))
    completion_ids[0, 2:4] = torch.tensor([11, 12])
    completion_ids[2, 5:8] = torch.tensor([21, 22, 23])
    response_mask = torch.ones(4, 10, dtype=torch.long)
    response_mask[1, 7:] = 0
    response_mask[3, 4:] = 0
    advantages = torch.randn(4, 1).expand(-1, 10) * response_mask
    advantages = advantages + 0.5 * mark_planning_tokens(completion_ids)
    stats = planning_advantage_stats(advantages, mark_planning_tokens(completion_ids), response_mask)
    plan = mark_planning_tokens(completion_ids)
    ref_plan, ref_exec = [], []
    for b in range(4):
        for t in range(10):
            if not response_mask[b, t]:
                continue
            (ref_plan if plan[b, t] else ref_exec).append(advantages[b, t].item())
    assert abs(stats["planning_advantage_mean"] - sum(ref_plan) / len(ref_plan)) < 1e-5
    assert abs(stats["execution_advantage_mean"] - sum(ref_exec) / len(ref_exec)) < 1e-5
    assert abs(stats["planning_token_ratio"] - len(ref_plan) / (len(ref_plan) + len(ref_exec))) < 1e-6
    print("ok")
