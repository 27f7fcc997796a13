import torch
from jaxtyping import Bool, Float, Int


def select_pool_topk(
    index_scores: Float[torch.Tensor, "batch seq pool"], top_k: int, ratio: int
) -> Int[torch.Tensor, "batch seq k"]:
    """Top-k compressed (pooled) positions per query; slots a query cannot use yet are -1."""
    b, s, p = index_scores.shape
    q_pos = torch.arange(s).view(1, s, 1)
    visible = torch.arange(p).view(1, 1, p) <= q_pos // ratio
    scores = index_scores.masked_fill(~visible, float("-inf"))
    vals, idx = scores.topk(top_k, dim=-1)
    return torch.where(torch.isinf(vals), torch.full_like(idx, -1), idx)


def compressed_mask(
    indexer_topk: Int[torch.Tensor, "batch seq k"], n_pooled: int
) -> Bool[torch.Tensor, "batch seq pool"]:
    b, s, _ = indexer_topk.shape
    valid = indexer_topk >= 0
    safe_idx = indexer_topk.clamp(min=0)
    hits = torch.zeros(b, s, n_pooled, dtype=torch.long)
    hits.scatter_add_(-1, safe_idx, valid.long())
    return hits > 0


def attend(
    q: Float[torch.Tensor, "batch seq d"], pooled_kv: Float[torch.Tensor, "batch pool d"], allowed: Bool[torch.Tensor, "batch seq pool"]
) -> Float[torch.Tensor, "batch seq d"]:
    logits = q @ pooled_kv.transpose(1, 2) / q.shape[-1] ** 0.5
    logits = logits.masked_fill(~allowed, float("-inf"))
    probs = torch.nan_to_num(logits.softmax(-1))
    return probs @ pooled_kv


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, seq, d, ratio, top_k = 1, 16, 4, 4, 3
    n_pooled = seq // ratio
    index_scores = torch.randn(batch, seq, n_pooled)
    topk = select_pool_topk(index_scores, top_k, ratio)
    allowed = compressed_mask(topk, n_pooled)
    for b in range(batch):
        for t in range(seq):
            chosen = {int(i) for i in topk[b, t] if int(i) >= 0}
            for p in range(n_pooled):
                assert bool(allowed[b, t, p]) == (p in chosen)
    assert bool(allowed[0, 0, 0])
    out = attend(torch.randn(batch, seq, d), torch.randn(batch, n_pooled, d), allowed)
    assert torch.isfinite(out).all()
    print("ok")
