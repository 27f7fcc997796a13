import torch
import torch.nn.functional as F


def knn_distribution(neighbor_tokens, neighbor_dists, vocab_size, temperature=1.0):
    """Turn retrieved neighbours into a distribution over the vocabulary.

    Args:
        neighbor_tokens (LongTensor): (batch, k) next-token id stored with each neighbour.
        neighbor_dists (Tensor): (batch, k) squared L2 distance of each neighbour.
        vocab_size (int): size of the LM vocabulary.

    Returns:
        Tensor of shape (batch, vocab_size) whose rows sum to 1.
    """
    weights = F.softmax(-neighbor_dists / temperature, dim=-1)           # (batch, k)
    probs = torch.zeros(neighbor_tokens.size(0), vocab_size)
    return probs.scatter_add(1, neighbor_tokens, weights)                 # repeats accumulate


def interpolate(lm_logits, neighbor_tokens, neighbor_dists, lam=0.25):
    lm_probs = F.softmax(lm_logits, dim=-1)                              # (batch, vocab)
    knn_probs = knn_distribution(neighbor_tokens, neighbor_dists, lm_logits.size(-1))
    return (1 - lam) * lm_probs + lam * knn_probs


def gold_log_prob(mixed_probs, targets):
    return mixed_probs.gather(1, targets.unsqueeze(1)).squeeze(1).log()  # (batch,)


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, vocab, k = 6, 50, 8
    lm_logits = torch.randn(batch, vocab)
    neighbor_tokens = torch.randint(0, vocab, (batch, k))
    neighbor_tokens[:, 1] = neighbor_tokens[:, 0]                        # force repeated tokens
    neighbor_dists = torch.rand(batch, k) * 4
    targets = torch.randint(0, vocab, (batch,))

    mixed = interpolate(lm_logits, neighbor_tokens, neighbor_dists)
    scores = gold_log_prob(mixed, targets)

    for b in range(batch):
        lm_p = torch.softmax(lm_logits[b], dim=0)
        w = torch.softmax(-neighbor_dists[b], dim=0)
        knn_p = torch.zeros(vocab)
        for j in range(k):
            knn_p[neighbor_tokens[b, j]] += w[j]
        ref = 0.75 * lm_p + 0.25 * knn_p
        assert torch.allclose(mixed[b], ref, atol=1e-6)
        assert torch.allclose(scores[b], ref[targets[b]].log(), atol=1e-6)
    assert torch.allclose(mixed.sum(-1), torch.ones(batch))
    print("ok")
