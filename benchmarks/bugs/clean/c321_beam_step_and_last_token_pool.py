import torch
import torch.nn.functional as F


def beam_step(logprobs, beam_scores, cache, beam_size):
    # logprobs:    (batch * beam, vocab)   log p(w | hypothesis)
    # beam_scores: (batch * beam,)         running score of each hypothesis
    # cache:       (batch * beam, heads, seq, dim) per-hypothesis key cache
    vocab = logprobs.size(-1)
    batch = logprobs.size(0) // beam_size
    cand = (logprobs + beam_scores.unsqueeze(-1)).view(batch, beam_size * vocab)   # (batch, beam * vocab)
    top_scores, top_ids = cand.topk(beam_size, dim=-1)                              # (batch, beam)
    parent = torch.div(top_ids, vocab, rounding_mode="floor")                        # (batch, beam)
    words = top_ids % vocab                                                          # (batch, beam)
    flat_parent = (parent + torch.arange(batch).unsqueeze(-1) * beam_size).view(-1)  # (batch * beam,)
    new_cache = cache.index_select(0, flat_parent)
    return top_scores.view(-1), words.view(-1), flat_parent, new_cache


def last_token_pool(hidden, attention_mask):
    # hidden: (B, T, H) right padded; attention_mask: (B, T) of 0/1
    last = attention_mask.sum(dim=1) - 1                                             # (B,)
    index = last.view(-1, 1, 1).expand(-1, 1, hidden.size(-1))                       # (B, 1, H)
    return hidden.gather(1, index).squeeze(1)                                        # (B, H)


def main():
    torch.manual_seed(0)
    batch, beam, vocab = 2, 3, 11
    logprobs = F.log_softmax(torch.randn(batch * beam, vocab), dim=-1)
    scores = torch.randn(batch * beam)
    cache = torch.randn(batch * beam, 2, 4, 8)
    new_scores, words, parents, new_cache = beam_step(logprobs, scores, cache, beam)
    for b in range(batch):
        cands = sorted(
            ((float(scores[b * beam + k] + logprobs[b * beam + k, w]), k, w) for k in range(beam) for w in range(vocab)),
            key=lambda c: -c[0],
        )[:beam]
        for j, (s, k, w) in enumerate(cands):
            assert abs(float(new_scores[b * beam + j]) - s) < 1e-6
            assert int(words[b * beam + j]) == w and int(parents[b * beam + j]) == b * beam + k
            assert torch.equal(new_cache[b * beam + j], cache[b * beam + k])

    hidden = torch.randn(3, 7, 5)
    mask = torch.zeros(3, 7, dtype=torch.long)
    for i, n in enumerate((7, 2, 4)):
        mask[i, :n] = 1
    pooled = last_token_pool(hidden, mask)
    for i, n in enumerate((7, 2, 4)):
        assert torch.equal(pooled[i], hidden[i, n - 1])
    print("ok")


if __name__ == "__main__":
    main()
