import torch
import torch.nn.functional as F

VOCAB, DIM, K, LMBDA = 50000, 16, 8, 0.25


def build_datastore(keys, next_tokens):
    # token ids kept compact but wide enough for a 50k vocabulary
    return keys.half(), next_tokens.to(torch.int32)


def knn_log_probs(queries, dkeys, dvals, lm_logits, targets):
    # queries: [B, D], dkeys: [N, D], dvals: [N], lm_logits: [B, V], targets: [B]
    dists = torch.cdist(queries, dkeys.float())                     # [B, N]
    top_d, top_i = dists.topk(K, dim=-1, largest=False)             # [B, K]
    weights = F.softmax(-top_d, dim=-1)                             # [B, K]
    vals = dvals.long()[top_i]                                      # [B, K]
    p_knn = torch.zeros_like(lm_logits).scatter_add_(1, vals, weights)   # [B, V]
    p_knn_again = torch.zeros_like(lm_logits)
    rows = torch.arange(queries.size(0)).unsqueeze(1).expand_as(vals)
    p_knn_again.index_put_((rows, vals), weights, accumulate=True)
    assert torch.allclose(p_knn, p_knn_again)
    p = LMBDA * p_knn + (1 - LMBDA) * F.softmax(lm_logits, dim=-1)  # [B, V]
    return p.gather(1, targets.unsqueeze(1)).squeeze(1).log(), p_knn


if __name__ == "__main__":
    torch.manual_seed(0)
    n = 80
    keys = torch.randn(n, DIM)
    next_tokens = torch.randint(0, VOCAB, (n,))
    next_tokens[:10] = 41234  # a frequent token: repeated neighbours must accumulate
    dkeys, dvals = build_datastore(keys, next_tokens)
    queries = keys[:4] + 0.01 * torch.randn(4, DIM)
    lm_logits = torch.randn(4, VOCAB)
    targets = next_tokens[:4]
    logp, p_knn = knn_log_probs(queries, dkeys, dvals, lm_logits, targets)

    lm_p = F.softmax(lm_logits, dim=-1)
    for b in range(4):
        d = [(queries[b] - dkeys[j].float()).norm().item() for j in range(n)]
        order = sorted(range(n), key=lambda j: d[j])[:K]
        w = F.softmax(-torch.tensor([d[j] for j in order]), dim=0).tolist()
        mass = {}
        for wj, j in zip(w, order):
            tok = int(next_tokens[j])
            mass[tok] = mass.get(tok, 0.0) + wj
        for tok, m in mass.items():
            assert abs(p_knn[b, tok].item() - m) < 1e-5
        t = int(targets[b])
        ref = LMBDA * mass.get(t, 0.0) + (1 - LMBDA) * lm_p[b, t].item()
        assert abs(logp[b].exp().item() - ref) < 1e-5
    print("ok")
