import torch
import torch.nn.functional as F


def hard_negatives(query, keys, positive_idx, k):
    """
    Args:
        query: (B, D) query embeddings.
        keys: (B, D) key embeddings; keys[positive_idx[i]] is the positive of query i.
        positive_idx: (B,) long.
        k: number of hard negatives per query.

    Returns:
        (B, k, D) hardest non-positive keys per query, and their (B, k) indices.
    """
    sim = query @ keys.t()                                               # (B, B)
    sim = sim.scatter(1, positive_idx.unsqueeze(1), float("-inf"))       # exclude the positive
    idx = sim.topk(k, dim=1).indices                                     # (B, k)
    neg = keys.unsqueeze(0).expand(query.size(0), -1, -1)                # (B, B, D)
    neg = neg.gather(1, idx.unsqueeze(-1).expand(-1, -1, keys.size(1)))  # (B, k, D)
    return neg, idx


def token_histogram(ids, mask, vocab):
    """(B, L) ids with (B, L) bool mask -> (B, vocab) counts; repeated ids accumulate."""
    hist = torch.zeros(ids.size(0), vocab)
    rows = torch.arange(ids.size(0)).unsqueeze(1).expand_as(ids)
    hist.index_put_((rows[mask], ids[mask]), torch.ones(int(mask.sum())), accumulate=True)
    return hist


def masked_target_logprob(logits, mask, target):
    """(B, L) logits over positions, (B, L) bool mask, (B,) target positions -> (B,) log-probs."""
    logp = F.log_softmax(logits.masked_fill(~mask, float("-inf")), dim=-1)
    return logp.gather(1, target.unsqueeze(1)).squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    q, keys = torch.randn(6, 5), torch.randn(6, 5)
    pos = torch.randperm(6)
    neg, idx = hard_negatives(q, keys, pos, k=2)
    for i in range(6):
        scores = [(float(q[i] @ keys[j]), j) for j in range(6) if j != int(pos[i])]
        best = [j for _, j in sorted(scores, reverse=True)[:2]]
        assert idx[i].tolist() == best
        for r, j in enumerate(best):
            assert torch.equal(neg[i, r], keys[j])

    ids = torch.tensor([[4, 4, 1, 0, 4], [2, 3, 3, 0, 0]])
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]], dtype=torch.bool)
    hist = token_histogram(ids, mask, vocab=5)
    for b in range(2):
        ref = [0.0] * 5
        for t, m in zip(ids[b].tolist(), mask[b].tolist()):
            if m:
                ref[t] += 1
        assert hist[b].tolist() == ref

    logits = torch.randn(2, 5)
    target = torch.tensor([3, 1])
    lp = masked_target_logprob(logits, mask, target)
    for b in range(2):
        valid = [float(logits[b, t]) for t in range(5) if mask[b, t]]
        lse = torch.logsumexp(torch.tensor(valid), 0)
        assert abs(float(lp[b]) - (float(logits[b, target[b]]) - float(lse))) < 1e-5
    print("ok")
