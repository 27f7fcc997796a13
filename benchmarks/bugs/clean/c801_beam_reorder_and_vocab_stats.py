import math

import torch
import torch.nn.functional as F


def beam_step(cache, beam_scores, step_logits, beam_size):
    # cache: [B * K, L, H], beam_scores: [B, K], step_logits: [B * K, V]
    batch = beam_scores.size(0)
    vocab = step_logits.size(-1)
    log_probs = F.log_softmax(step_logits, dim=-1).view(batch, beam_size, vocab)  # [B, K, V]
    cand = (beam_scores.unsqueeze(-1) + log_probs).view(batch, -1)               # [B, K * V]
    top_scores, top_pos = cand.topk(beam_size, dim=-1)                             # [B, K]
    parent = torch.div(top_pos, vocab, rounding_mode="floor")                      # [B, K]
    word = top_pos % vocab                                                          # [B, K]
    flat_parent = (parent + torch.arange(batch).unsqueeze(1) * beam_size).view(-1)  # [B * K]
    return cache.index_select(0, flat_parent), top_scores, word


def vocab_means(token_ids, hidden, mask):
    # token_ids: [B, T], hidden: [B, T, H], mask: [B, T]; ids repeat within the batch
    vocab = int(token_ids.max()) + 1
    keep = mask.bool()
    ids, vecs = token_ids[keep], hidden[keep]                                       # [N], [N, H]
    sums = torch.zeros(vocab, hidden.size(-1)).index_add_(0, ids, vecs)             # [V, H]
    counts = torch.zeros(vocab).scatter_add_(0, ids, torch.ones(ids.size(0)))       # [V]
    return sums / counts.clamp_min(1).unsqueeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, K, L, H, V = 2, 3, 4, 5, 7
    cache = torch.randn(B * K, L, H)
    beam_scores = torch.randn(B, K)
    logits = torch.randn(B * K, V)
    new_cache, scores, words = beam_step(cache, beam_scores, logits, K)
    for b in range(B):
        cands = []
        for k in range(K):
            row = logits[b * K + k].tolist()
            lse = math.log(sum(math.exp(v) for v in row))
            for w in range(V):
                cands.append((float(beam_scores[b, k]) + row[w] - lse, k, w))
        cands.sort(key=lambda c: -c[0])
        for j, (sc, k, w) in enumerate(cands[:K]):
            assert abs(float(scores[b, j]) - sc) < 1e-5 and int(words[b, j]) == w
            assert torch.equal(new_cache[b * K + j], cache[b * K + k])

    token_ids = torch.tensor([[3, 1, 3, 2], [1, 3, 0, 0]])
    mask = torch.tensor([[1, 1, 1, 1], [1, 1, 0, 0]])
    hidden = torch.randn(2, 4, H)
    means = vocab_means(token_ids, hidden, mask)
    for v in range(4):
        rows = [hidden[i, t] for i in range(2) for t in range(4) if mask[i, t] and token_ids[i, t] == v]
        expect = torch.stack(rows).mean(0) if rows else torch.zeros(H)
        assert torch.allclose(means[v], expect, atol=1e-6)
    print("ok")
