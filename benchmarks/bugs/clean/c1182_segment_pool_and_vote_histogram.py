import torch


def segment_max(features, segment_ids, num_segments):
    """Max-pool point features per segment.

    Args:
        features (Tensor): (N, D), may be negative.
        segment_ids (LongTensor): (N,), values in [0, num_segments).
        num_segments (int): S.

    Returns:
        Tensor: (S, D); empty segments are 0.
    """
    index = segment_ids.unsqueeze(-1).expand_as(features)
    out = features.new_zeros(num_segments, features.size(1))
    out = out.scatter_reduce(0, index, features, reduce="amax", include_self=False)
    return out


def vote_histogram(votes, num_bins):
    """Counts of (row, bin) votes; repeated votes must all count.

    Args:
        votes (LongTensor): (V, 2) pairs of (row, bin).
        num_bins (int): B.
    """
    rows = int(votes[:, 0].max()) + 1
    hist = torch.zeros(rows, num_bins)
    hist.index_put_((votes[:, 0], votes[:, 1]), torch.ones(votes.size(0)), accumulate=True)
    return hist


def masked_token_logprob(log_probs, labels, ignore_index=-100):
    # log_probs: (B, T, V); labels: (B, T) with ignore_index on padding
    mask = labels.ne(ignore_index)
    safe = labels.masked_fill(~mask, 0)
    picked = torch.take_along_dim(log_probs, safe.unsqueeze(-1), dim=-1).squeeze(-1)
    return picked * mask


if __name__ == "__main__":
    torch.manual_seed(0)
    feats = -torch.rand(12, 3) - 0.5
    seg = torch.tensor([0, 0, 1, 1, 1, 3, 3, 0, 1, 3, 3, 0])
    pooled = segment_max(feats, seg, 4)
    for s in range(4):
        members = [feats[i] for i in range(12) if int(seg[i]) == s]
        want = torch.stack(members).max(0).values if members else torch.zeros(3)
        assert torch.allclose(pooled[s], want)

    votes = torch.tensor([[0, 1], [0, 1], [1, 2], [0, 1], [2, 0], [1, 2]])
    hist = vote_histogram(votes, 3)
    for r in range(3):
        for b in range(3):
            assert hist[r, b].item() == sum(1 for v in votes.tolist() if v == [r, b])

    lp = torch.randn(2, 5, 7).log_softmax(-1)
    labels = torch.tensor([[1, 6, 0, -100, -100], [3, 3, 2, 5, -100]])
    got = masked_token_logprob(lp, labels)
    for b in range(2):
        for t in range(5):
            y = int(labels[b, t])
            want = 0.0 if y == -100 else lp[b, t, y].item()
            assert abs(got[b, t].item() - want) < 1e-6
    print("ok")
