import torch


def frequency_counts(output_ids, vocab_size):
    # output_ids: [B, T] -> counts: [B, V]; repeated ids must accumulate
    counts = torch.zeros(output_ids.size(0), vocab_size)
    counts.scatter_add_(1, output_ids, torch.ones_like(output_ids, dtype=counts.dtype))
    return counts


def penalized_beam_step(logits, scores, history, hidden, beam, penalty):
    # logits: [B*K, V], scores: [B, K], history: [B*K, T], hidden: [B, K, H]
    BK, V = logits.shape
    B = BK // beam
    logp = torch.log_softmax(logits - penalty * frequency_counts(history, V), dim=-1)
    cand = (scores.unsqueeze(-1) + logp.view(B, beam, V)).view(B, beam * V)   # [B, K*V]
    top_scores, top_ids = cand.topk(beam, dim=-1)                              # [B, K]
    parent = torch.div(top_ids, V, rounding_mode="floor")                      # [B, K] int64
    token = top_ids % V                                                        # [B, K]
    index = parent.unsqueeze(-1).expand(-1, -1, hidden.size(-1))               # [B, K, H]
    new_hidden = hidden.gather(1, index)                                       # [B, K, H]
    flat_parent = (parent + torch.arange(B).unsqueeze(1) * beam).view(-1)      # [B*K]
    new_history = torch.cat([history.index_select(0, flat_parent), token.view(-1, 1)], dim=1)
    return top_scores, token, parent, new_hidden, new_history


if __name__ == "__main__":
    torch.manual_seed(0)
    B, K, V, H, T = 2, 3, 7, 4, 5
    logits = torch.randn(B * K, V)
    scores = torch.randn(B, K)
    history = torch.randint(0, V, (B * K, T))
    hidden = torch.randn(B, K, H)
    s, tok, par, nh, hist = penalized_beam_step(logits, scores, history, hidden, K, penalty=0.7)

    for b in range(B):
        cands = []
        for k in range(K):
            row = logits[b * K + k].clone()
            for t in history[b * K + k].tolist():
                row[t] -= 0.7
            lp = torch.log_softmax(row, dim=-1)
            for v in range(V):
                cands.append((scores[b, k].item() + lp[v].item(), k, v))
        cands.sort(key=lambda c: -c[0])
        for r in range(K):
            sc, k, v = cands[r]
            assert abs(s[b, r].item() - sc) < 1e-5
            assert par[b, r].item() == k and tok[b, r].item() == v
            assert torch.equal(nh[b, r], hidden[b, k])
            assert hist[b * K + r].tolist() == history[b * K + k].tolist() + [v]
    print("ok")
