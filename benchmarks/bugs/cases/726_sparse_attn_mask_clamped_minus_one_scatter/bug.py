import torch


def topk_to_indicator(indexer_topk, pool_size):
    # indexer_topk: [B, S, K] selected pool slots, -1 marks an unused slot
    B, S, K = indexer_topk.shape
    valid = indexer_topk != -1                      # [B, S, K]
    safe_idx = indexer_topk.clamp(min=0)            # [B, S, K]
    indicator = torch.zeros(B, S, pool_size, dtype=torch.bool)
    indicator.scatter_(-1, safe_idx, valid)         # [B, S, P]
    return indicator


def sparse_attention(q, pool_k, pool_v, indexer_topk):
    # q: [B, S, D], pool_k / pool_v: [B, P, D]
    scores = q @ pool_k.transpose(1, 2) / q.shape[-1] ** 0.5    # [B, S, P]
    keep = topk_to_indicator(indexer_topk, pool_k.shape[1])
    scores = scores.masked_fill(~keep, float("-inf"))
    return scores.softmax(-1) @ pool_v, keep


if __name__ == "__main__":
    torch.manual_seed(0)
    q = torch.randn(1, 3, 8)
    pool_k, pool_v = torch.randn(1, 5, 8), torch.randn(1, 5, 8)
    # causal: query s may only see pool slots < s + 2
    topk = torch.tensor([[[0, 1, -1], [0, 2, 1], [3, 0, -1]]])
    out, keep = sparse_attention(q, pool_k, pool_v, topk)
    print(keep.int())
    print(out[0, :, :3])
