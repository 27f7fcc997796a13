import torch


def beam_step(log_probs, beam_scores, history, beam_size):
    """One step of batched beam search for a seq2seq decoder.

    Args:
        log_probs (FloatTensor): shape (batch, beam, vocab), next-token log-probs.
        beam_scores (FloatTensor): shape (batch, beam), running scores.
        history (LongTensor): shape (batch, beam, step), tokens decoded so far.
        beam_size (int): K.

    Returns:
        Tuple of (scores (batch, K), history (batch, K, step + 1)).
    """
    batch, K, vocab = log_probs.shape
    total = (beam_scores.unsqueeze(-1) + log_probs).view(batch, K * vocab)
    k_scores, k_ids = torch.topk(total, beam_size, dim=1)
    back_ptrs = torch.div(k_ids, vocab, rounding_mode="floor")
    k_words = torch.fmod(k_ids, vocab)
    step = history.size(-1)
    prev = torch.gather(history, 1, back_ptrs.unsqueeze(-1).expand(batch, K, step))
    return k_scores, torch.cat([prev, k_words.unsqueeze(-1)], dim=-1)


def decode(step_logits, bos_id, beam_size):
    """Greedy-free beam decoding over precomputed per-step logits.

    Args:
        step_logits (FloatTensor): shape (steps, batch, beam, vocab).
        bos_id (int): start token.
        beam_size (int): K.

    Returns:
        LongTensor: shape (batch, K, steps + 1) decoded beams.
    """
    steps, batch, K, vocab = step_logits.shape
    scores = torch.zeros(batch, K)
    scores[:, 1:] = -1e9
    history = torch.full((batch, K, 1), bos_id, dtype=torch.long)
    for t in range(steps):
        scores, history = beam_step(step_logits[t].log_softmax(-1), scores, history, beam_size)
    return history


def reference_decode(step_logits, bos_id, beam_size):
    steps, batch, K, vocab = step_logits.shape
    out = []
    for b in range(batch):
        beams = [([bos_id], 0.0)] + [([bos_id], -1e9)] * (K - 1)
        for t in range(steps):
            lp = step_logits[t, b].log_softmax(-1)
            cands = []
            for k, (toks, sc) in enumerate(beams):
                for w in range(vocab):
                    cands.append((sc + lp[k, w].item(), k * vocab + w, toks + [w]))
            cands.sort(key=lambda c: (-c[0], c[1]))
            beams = [(c[2], c[0]) for c in cands[:beam_size]]
        out.append([toks for toks, _ in beams])
    return torch.tensor(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.randn(4, 2, 3, 11)
    beams = decode(logits, bos_id=1, beam_size=3)
    assert torch.equal(beams, reference_decode(logits, 1, 3))
    print("ok")
