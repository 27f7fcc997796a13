import torch


def beam_step(log_probs, beam_scores, history, beam_size):
    """One beam-search step over flattened (beam, vocab) candidates.

    log_probs: (B, K, V); beam_scores: (B, K); history: (B, K, T) token ids.
    """
    batch, _, vocab = log_probs.shape
    cand = (beam_scores.unsqueeze(-1) + log_probs).view(batch, -1)  # (B, K*V)
    top_scores, top_ids = cand.topk(beam_size, dim=-1)  # (B, K)
    parent = torch.div(top_ids, vocab, rounding_mode="floor")  # (B, K) long
    token = top_ids % vocab  # (B, K)
    idx = parent.unsqueeze(-1).expand(-1, -1, history.size(-1))  # (B, K, T)
    new_history = torch.cat([history.gather(1, idx), token.unsqueeze(-1)], dim=-1)
    return top_scores, new_history, parent


def token_counts(history, vocab):
    """Per-row counts of generated ids; repeated ids accumulate."""
    counts = torch.zeros(history.size(0), history.size(1), vocab)
    counts.scatter_add_(2, history, torch.ones_like(history, dtype=counts.dtype))
    return counts


def repetition_penalty(logits, history, penalty):
    seen = torch.gather(logits, -1, history)
    seen = torch.where(seen > 0, seen / penalty, seen * penalty)
    return logits.scatter(-1, history, seen)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, K, V, T = 2, 3, 7, 4
    history = torch.randint(0, V, (B, K, T))
    log_probs = torch.randn(B, K, V).log_softmax(-1)
    scores = torch.randn(B, K)
    top_scores, new_hist, parent = beam_step(log_probs, scores, history, K)
    for b in range(B):
        flat = [(scores[b, k].item() + log_probs[b, k, v].item(), k, v) for k in range(K) for v in range(V)]
        flat.sort(key=lambda t: -t[0])
        for j in range(K):
            s, k, v = flat[j]
            assert abs(top_scores[b, j].item() - s) < 1e-5 and parent[b, j].item() == k
            assert new_hist[b, j].tolist() == history[b, k].tolist() + [v]
    counts = token_counts(new_hist, V)
    for b in range(B):
        for k in range(K):
            for v in range(V):
                assert counts[b, k, v].item() == new_hist[b, k].tolist().count(v)
    logits = torch.randn(B, K, V)
    pen = repetition_penalty(logits, new_hist, 1.3)
    for b in range(B):
        for k in range(K):
            seen_ids = set(new_hist[b, k].tolist())
            for v in range(V):
                x = logits[b, k, v].item()
                want = (x / 1.3 if x > 0 else x * 1.3) if v in seen_ids else x
                assert abs(pen[b, k, v].item() - want) < 1e-5
    print("ok")
