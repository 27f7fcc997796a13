import math

import torch


class ObservedAttentionScorer:
    def __init__(self, window):
        self.window = window

    def __call__(self, queries, keys):
        q = queries[:, :, -self.window :]
        attn = (q @ keys.transpose(-1, -2) / math.sqrt(keys.shape[-1])).softmax(dim=-1)
        return attn.mean(dim=2)


class SharedEvictionPress:
    """Evicts the same token positions from every KV head so the cache stays rectangular."""

    def __init__(self, scorer, compression_ratio):
        self.scorer = scorer
        self.compression_ratio = compression_ratio

    def evict_positions(self, scores, n_to_evict):
        return scores[:, 0, :].topk(n_to_evict, dim=-1, largest=False).indices

    def compress(self, queries, keys, values):
        bsz, num_kv_heads, seq_len, head_dim = keys.shape
        n_to_evict = int(seq_len * self.compression_ratio)
        scores = self.scorer(queries, keys)
        evict_indices = self.evict_positions(scores, n_to_evict)
        keep = torch.ones(bsz, seq_len, dtype=torch.bool).scatter_(1, evict_indices, False)
        kept_indices = keep.nonzero()[:, 1].view(bsz, seq_len - n_to_evict)
        gather_idx = kept_indices[:, None, :, None].expand(bsz, num_kv_heads, -1, head_dim)
        return kept_indices, keys.gather(2, gather_idx), values.gather(2, gather_idx)


if __name__ == "__main__":
    torch.manual_seed(0)
    queries = torch.randn(2, 4, 32, 16)
    keys = torch.randn(2, 4, 32, 16)
    values = torch.randn(2, 4, 32, 16)
    press = SharedEvictionPress(ObservedAttentionScorer(window=8), compression_ratio=0.5)
    kept, k_small, v_small = press.compress(queries, keys, values)
    scores = press.scorer(queries, keys)
    mismatched = 0
    for b in range(2):
        per_pos = [sum(scores[b, h, s].item() for h in range(4)) / 4 for s in range(32)]
        ref = sorted(sorted(range(32), key=lambda s: per_pos[s])[16:])
        mismatched += len(set(ref) - set(kept[b].tolist()))
    print("kept cache shape:", tuple(k_small.shape))
    print("positions that differ from the all-head ranking:", mismatched, "of", 2 * 16)
