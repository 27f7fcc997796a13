import torch


def last_real_token(hidden, attention_mask):
    """Hidden state of the rightmost non-padding token, for left or right padding.

    Args:
        hidden: (B, L, H) hidden states.
        attention_mask: (B, L) with 1 for real tokens.
    Returns:
        (B, H) pooled states.
    """
    positions = torch.arange(attention_mask.size(1))
    last = (attention_mask * positions).argmax(dim=1)                      # (B,)
    index = last[:, None, None].expand(-1, 1, hidden.size(-1))             # (B, 1, H)
    return hidden.gather(1, index).squeeze(1)


def segment_max_and_counts(values, segment_ids, num_segments):
    """Per-segment max of (N, D) values and per-segment sizes.

    Args:
        values: (N, D) features, may be negative.
        segment_ids: (N,) ids in [0, num_segments) with repeats.
    Returns:
        (num_segments, D) maxima (0 for empty segments) and (num_segments,) counts.
    """
    out = torch.zeros(num_segments, values.size(1))
    out.scatter_reduce_(0, segment_ids[:, None].expand_as(values), values, reduce="amax", include_self=False)
    counts = torch.zeros(num_segments)
    counts.index_put_((segment_ids,), torch.ones(len(segment_ids)), accumulate=True)
    return out, counts


if __name__ == "__main__":
    torch.manual_seed(0)
    hidden = torch.randn(3, 6, 4)
    mask = torch.tensor([[0, 0, 1, 1, 1, 1], [1, 1, 1, 0, 0, 0], [1, 1, 1, 1, 1, 1]])
    pooled = last_real_token(hidden, mask)
    for b, t in enumerate([5, 2, 5]):
        assert torch.equal(pooled[b], hidden[b, t])

    vals = torch.randn(10, 3) - 2.0
    seg = torch.tensor([0, 2, 2, 0, 3, 3, 3, 0, 2, 3])
    mx, cnt = segment_max_and_counts(vals, seg, 5)
    for s in range(5):
        rows = [vals[i] for i in range(10) if int(seg[i]) == s]
        assert int(cnt[s]) == len(rows)
        ref = torch.stack(rows).max(dim=0).values if rows else torch.zeros(3)
        assert torch.equal(mx[s], ref)
    print("ok")
