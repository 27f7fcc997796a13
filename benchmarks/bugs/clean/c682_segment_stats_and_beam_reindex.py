"""Segment statistics and beam re-indexing that look risky but are correct."""
import torch


def segment_max_mean(values, segment_ids, num_segments):
    # values: [N, D], segment_ids: [N] in [0, num_segments)
    d = values.size(1)
    index = segment_ids.unsqueeze(1).expand(-1, d)  # [N, D]
    seg_max = values.new_full((num_segments, d), float("-inf"))
    seg_max = seg_max.scatter_reduce(0, index, values, reduce="amax", include_self=False)
    seg_sum = values.new_zeros(num_segments, d).index_add_(0, segment_ids, values)
    counts = torch.bincount(segment_ids, minlength=num_segments).clamp(min=1)  # [S]
    return seg_max, seg_sum / counts.unsqueeze(1).to(values.dtype)


def reorder_beams(cache, flat_ids, vocab_size, beam_size):
    # cache: [B * K, T, H]; flat_ids: [B, K] indices into K * V candidates
    parent = torch.div(flat_ids, vocab_size, rounding_mode="floor")  # [B, K] int64
    token = flat_ids % vocab_size  # [B, K]
    base = torch.arange(flat_ids.size(0)).unsqueeze(1) * beam_size  # [B, 1]
    rows = (base + parent).view(-1)  # [B * K]
    return cache.index_select(0, rows), token


def token_counts(ids, vocab_size):
    # ids: [B, T] -> counts [B, V]
    counts = torch.zeros(ids.size(0), vocab_size, dtype=torch.long)
    return counts.scatter_add_(1, ids, torch.ones_like(ids))


if __name__ == "__main__":
    torch.manual_seed(0)
    vals = torch.randn(11, 4) - 2.0
    seg = torch.tensor([0, 0, 1, 2, 2, 2, 1, 3, 3, 0, 2])
    mx, mean = segment_max_mean(vals, seg, 4)
    for s in range(4):
        rows = [vals[i] for i in range(11) if seg[i].item() == s]
        for j in range(4):
            assert abs(mx[s, j].item() - max(r[j].item() for r in rows)) < 1e-6
            assert abs(mean[s, j].item() - sum(r[j].item() for r in rows) / len(rows)) < 1e-6

    B, K, V, T, H = 2, 3, 7, 4, 5
    cache = torch.randn(B * K, T, H)
    flat = torch.randint(0, K * V, (B, K))
    new_cache, tok = reorder_beams(cache, flat, V, K)
    for b in range(B):
        for k in range(K):
            f = flat[b, k].item()
            assert torch.equal(new_cache[b * K + k], cache[b * K + f // V])
            assert tok[b, k].item() == f % V

    ids = torch.randint(0, 9, (3, 10))
    cnt = token_counts(ids, 9)
    for b in range(3):
        for v in range(9):
            assert cnt[b, v].item() == ids[b].tolist().count(v)
    print("ok")
