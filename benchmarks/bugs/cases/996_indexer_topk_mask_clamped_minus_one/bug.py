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
    allowed = torch.zeros(b, s, n_pooled, dtype=torch.bool)
    allowed.scatter_(-1, safe_idx, valid)
    return allowed


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
    print("top-k of query 0:", topk[0, 0].tolist())
    print("query 0 may attend pool 0:", bool(allowed[0, 0, 0]))
    out = attend(torch.randn(batch, seq, d), torch.randn(batch, n_pooled, d), allowed)
    print("query 0 output:", out[0, 0])
