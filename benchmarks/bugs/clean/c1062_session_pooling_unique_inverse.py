import torch


def pool_by_session(item_emb, session_ids):
    """Mean- and max-pool item embeddings per session and broadcast back to items.

    Args:
        item_emb: (N, D) float embeddings, one per clicked item.
        session_ids: (N,) raw session ids, arbitrary and repeating.

    Returns:
        mean_per_item: (N, D), max_per_item: (N, D), unique session ids (S,)
    """
    uniq, inv = torch.unique(session_ids, return_inverse=True)        # (S,), (N,)
    S, D = uniq.numel(), item_emb.size(1)
    sums = item_emb.new_zeros(S, D).index_add_(0, inv, item_emb)      # source rows == len(inv)
    counts = item_emb.new_zeros(S).index_add_(0, inv, torch.ones_like(inv, dtype=item_emb.dtype))
    means = sums / counts.unsqueeze(1)
    idx = inv.unsqueeze(1).expand(-1, D)                              # (N, D)
    maxes = item_emb.new_full((S, D), float("-inf")).scatter_reduce(
        0, idx, item_emb, reduce="amax", include_self=False)
    return means.gather(0, idx), maxes.gather(0, idx), uniq


if __name__ == "__main__":
    torch.manual_seed(0)
    emb = torch.randn(12, 5)
    sids = torch.tensor([901, 17, 901, 44, 17, 17, 901, 3, 44, 3, 3, 901])
    mean_i, max_i, uniq = pool_by_session(emb, sids)
    for n in range(12):
        members = [m for m in range(12) if sids[m] == sids[n]]
        ref_mean = sum(emb[m] for m in members) / len(members)
        ref_max = torch.stack([emb[m] for m in members]).max(0).values
        assert torch.allclose(mean_i[n], ref_mean, atol=1e-6)
        assert torch.equal(max_i[n], ref_max)
    assert uniq.tolist() == sorted(set(sids.tolist()))
    print("ok")
