import torch


def entropy_threshold(response_mask, entropies, k=0.3):
    """Return the entropy value above which a token counts as 'high entropy'.

    Args:
        response_mask (`torch.Tensor` of shape `(batch_size, seq_len)`): 1 for completion tokens.
        entropies (`torch.Tensor` of shape `(batch_size, seq_len)`): per-token policy entropy.
        k (`float`): fraction of valid tokens kept above the threshold.

    Returns:
        `torch.Tensor` of shape `()`.
    """
    valid = entropies[response_mask.bool()]
    n_keep = max(1, int(valid.numel() * k))
    return valid.topk(n_keep).values.min()


def amplify_planning_advantages(advantages, entropies, response_mask, group_ids, alpha=0.2, k=0.3):
    """Scale up the advantage of high-entropy tokens in long, correct completions.

    Args:
        advantages (`torch.Tensor` of shape `(batch_size, seq_len)`): per-token advantages.
        entropies (`torch.Tensor` of shape `(batch_size, seq_len)`): per-token entropies.
        response_mask (`torch.Tensor` of shape `(batch_size, seq_len)`): completion mask.
        group_ids (`torch.Tensor` of shape `(batch_size,)`): prompt group of every completion.
        alpha (`float`): amplification factor.
        k (`float`): top-k fraction for the entropy threshold.

    Returns:
        `torch.Tensor` of shape `(batch_size, seq_len)`: the modified advantages.
    """
    lengths = response_mask.sum(dim=1)
    centered = entropies - entropy_threshold(response_mask, entropies, k)
    for gid in group_ids.unique():
        in_group = group_ids == gid
        mask = response_mask[in_group]
        seq_adv = (advantages[in_group] * mask).sum(1) / mask.sum(1).clamp(min=1)
        correct = seq_adv > 0
        if not correct.any():
            continue
        longer = lengths[in_group] > lengths[in_group].float().mean()
        is_high = centered[in_group] > 0
        is_high[~(correct & longer)] = False
        full_mask = torch.zeros_like(advantages, dtype=torch.bool)
        full_mask[in_group] = is_high
        advantages[full_mask] *= 1 + alpha
    return advantages


if __name__ == "__main__":
    torch.manual_seed(0)
    batch_size, seq_len = 8, 12
    group_ids = torch.tensor([0, 0, 0, 0, 1, 1, 1, 1])
    lengths = torch.tensor([12, 5, 9, 11, 4, 12, 7, 10])
    response_mask = (torch.arange(seq_len)[None, :] < lengths[:, None]).long()
    rewards = torch.tensor([1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0])
    seq_adv = rewards - rewards.view(2, 4).mean(1).repeat_interleave(4)
    advantages = seq_adv[:, None].expand(-1, seq_len) * response_mask
    entropies = torch.rand(batch_size, seq_len)
    before = advantages.clone()
    after = amplify_planning_advantages(advantages.clone(), entropies, response_mask, group_ids)

    thr = entropy_threshold(response_mask, entropies).item()
    ref = before.tolist()
    for g in (0, 1):
        rows = [b for b in range(batch_size) if group_ids[b].item() == g]
        means = {}
        for b in rows:
            n = int(response_mask[b].sum())
            means[b] = sum(before[b, t].item() for t in range(n)) / max(n, 1)
        if not any(means[b] > 0 for b in rows):
            continue
        avg_len = sum(int(lengths[b]) for b in rows) / len(rows)
        for b in rows:
            if means[b] > 0 and int(lengths[b]) > avg_len:
                for t in range(seq_len):
                    if entropies[b, t].item() - thr > 0:
                        ref[b][t] = ref[b][t] * 1.2
    assert torch.allclose(after, torch.tensor(ref))
    assert int((after != before).sum()) > 0
    print("ok")
