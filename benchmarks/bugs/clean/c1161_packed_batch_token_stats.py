"""Per-document statistics over a packed batch of token streams.

Looks risky (index_put_ with repeated ids, scatter_reduce into a fresh buffer, a gather
whose labels contain -100, beam back-pointers from a flat top-k) but every call is right.
"""
import torch
import torch.nn.functional as F


def doc_token_counts(token_ids, doc_ids, num_docs, vocab):
    # token_ids, doc_ids: [N]; counts: [num_docs, vocab]
    counts = torch.zeros(num_docs, vocab)
    counts.index_put_((doc_ids, token_ids), torch.ones(token_ids.numel()), accumulate=True)
    return counts


def doc_max_logprob(logits, labels, doc_ids, num_docs, ignore_index=-100):
    # logits: [N, V], labels: [N] with ignore_index, doc_ids: [N]
    logp = F.log_softmax(logits, dim=-1)
    valid = labels != ignore_index
    safe = labels.masked_fill(~valid, 0)
    gold = logp.gather(1, safe.unsqueeze(1)).squeeze(1)  # [N]
    gold = gold.masked_fill(~valid, float("-inf"))
    out = torch.full((num_docs,), float("-inf"))
    return out.scatter_reduce(0, doc_ids, gold, reduce="amax", include_self=False)


def beam_backpointers(scores, k):
    # scores: [B, K, V] -> parents [B, k], words [B, k]
    b, beams, vocab = scores.shape
    top, flat_ids = scores.view(b, beams * vocab).topk(k, dim=-1)
    return flat_ids // vocab, flat_ids % vocab


if __name__ == "__main__":
    torch.manual_seed(0)
    N, V, D = 14, 9, 3
    tokens = torch.randint(0, V, (N,))
    docs = torch.tensor([0] * 5 + [1] * 4 + [2] * 5)
    labels = tokens.clone()
    labels[[0, 5, 9]] = -100
    logits = torch.randn(N, V)

    counts = doc_token_counts(tokens, docs, D, V)
    ref_counts = torch.zeros(D, V)
    for t, d in zip(tokens.tolist(), docs.tolist()):
        ref_counts[d, t] += 1
    assert torch.equal(counts, ref_counts)

    best = doc_max_logprob(logits, labels, docs, D)
    for d in range(D):
        vals = [F.log_softmax(logits[i], -1)[labels[i]].item() for i in range(N)
                if docs[i] == d and labels[i] != -100]
        assert abs(best[d].item() - max(vals)) < 1e-5

    scores = torch.randn(2, 3, V)
    parents, words = beam_backpointers(scores, 3)
    for b in range(2):
        flat = sorted(((scores[b, p, w].item(), p, w) for p in range(3) for w in range(V)), reverse=True)[:3]
        assert parents[b].tolist() == [p for _, p, _ in flat]
        assert words[b].tolist() == [w for _, _, w in flat]
    print("ok")
