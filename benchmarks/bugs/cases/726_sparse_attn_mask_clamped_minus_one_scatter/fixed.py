import torch


def topk_to_indicator(indexer_topk, pool_size):
    # indexer_topk: [B, S, K] selected pool slots, -1 marks an unused slot
    B, S, K = indexer_topk.shape
    valid = indexer_topk != -1                      # [B, S, K]
    safe_idx = torch.where(valid, indexer_topk, pool_size)   # [B, S, K], -1 -> spare slot P
    indicator = torch.zeros(B, S, pool_size + 1, dtype=torch.bool)
    indicator.scatter_(-1, safe_idx, True)          # [B, S, P + 1]
    return indicator[..., :pool_size]


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
    topk = torch.tensor([[[0, 1, -1], [0, 2, 1], [3, 0, -1]]])
    out, keep = sparse_attention(q, pool_k, pool_v, topk)
    for s in range(3):
        allowed = {i for i in topk[0, s].tolist() if i != -1}
        assert keep[0, s].tolist() == [p in allowed for p in range(5)]
        scores = [(q[0, s] @ pool_k[0, p]).item() / 8 ** 0.5 for p in sorted(allowed)]
        w = torch.tensor(scores).softmax(0)
        ref = sum(w[j] * pool_v[0, p] for j, p in enumerate(sorted(allowed)))
        assert torch.allclose(out[0, s], ref, atol=1e-5)
    print("ok")
