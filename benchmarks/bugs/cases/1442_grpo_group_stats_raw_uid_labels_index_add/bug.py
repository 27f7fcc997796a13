import numpy as np
import torch


def as_group_index(uids):
    """Convert per-sample group labels into group ids.

    Args:
        uids: sequence of length ``bs`` with one label per rollout; rollouts of
            the same prompt share a label (integers, UUID strings, ...).

    Returns:
        ``torch.LongTensor`` of shape ``(bs,)`` with ids in ``[0, G-1]``.
    """
    arr = np.asarray(uids)
    if np.issubdtype(arr.dtype, np.integer):
        return torch.from_numpy(arr.astype(np.int64))
    _, inverse = np.unique(arr, return_inverse=True)
    return torch.from_numpy(inverse.astype(np.int64))


def group_mean_std(scores, gidx):
    """Per-group mean and std (Bessel corrected).

    Args:
        scores: ``(bs,)`` float sequence scores.
        gidx: ``(bs,)`` group ids in ``[0, G-1]``.

    Returns:
        mean, std, count: each ``(G,)``.
    """
    G = int(gidx.max().item()) + 1
    ones = torch.ones_like(scores)
    count = torch.zeros(G).index_add_(0, gidx, ones)
    total = torch.zeros(G).index_add_(0, gidx, scores)
    sq = torch.zeros(G).index_add_(0, gidx, scores * scores)
    mean = total / count.clamp_min(1)
    var = (sq - count * mean * mean) / (count - 1).clamp_min(1)
    return mean, var.clamp_min(0).sqrt(), count


def grpo_outcome_advantage(token_level_rewards, response_mask, uids, eps=1e-6):
    """GRPO advantage: (score - group mean) / (group std + eps), broadcast over the response.

    Args:
        token_level_rewards: ``(bs, response_length)``.
        response_mask: ``(bs, response_length)``.
        uids: ``bs`` group labels.
    """
    scores = token_level_rewards.sum(-1)
    gidx = as_group_index(uids)
    mean, std, count = group_mean_std(scores, gidx)
    std = torch.where(count[gidx] > 1, std[gidx], torch.ones_like(scores))
    adv = (scores - mean[gidx]) / (std + eps)
    return adv.unsqueeze(-1) * response_mask


if __name__ == "__main__":
    torch.manual_seed(0)
    n_prompts, n_rollouts, resp_len = 3, 4, 6
    # prompt ids from the dataset are used directly as uids; one is a negative sentinel
    uids = np.repeat(np.array([-1, 7, 12]), n_rollouts)
    rewards = torch.zeros(n_prompts * n_rollouts, resp_len)
    rewards[:, -1] = torch.randint(0, 2, (n_prompts * n_rollouts,)).float()
    mask = torch.ones(n_prompts * n_rollouts, resp_len)
    adv = grpo_outcome_advantage(rewards, mask, uids)
    print("advantages:", adv[:, -1])
