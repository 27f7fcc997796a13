import torch
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


def knn_search(
    queries: Float[Tensor, "batch dim"], keys: Float[Tensor, "store dim"], k: int
) -> tuple[Float[Tensor, "batch k"], Int[Tensor, "batch k"]]:
    dists = torch.cdist(queries, keys) ** 2
    neg, idx = (-dists).topk(k, dim=-1)
    return -neg, idx


def knn_distribution(
    dists: Float[Tensor, "batch k"], neighbor_ids: Int[Tensor, "batch k"], vocab_size: int, temperature: float
) -> Float[Tensor, "batch vocab"]:
    weights = F.softmax(-dists / temperature, dim=-1)
    probs = weights.new_zeros(weights.size(0), vocab_size)
    # several neighbours can carry the same next token: their weights must add up
    return probs.scatter_add(1, neighbor_ids, weights)


def interpolate(
    lm_logits: Float[Tensor, "batch vocab"],
    queries: Float[Tensor, "batch dim"],
    keys: Float[Tensor, "store dim"],
    values: Int[Tensor, "store"],
    k: int = 8,
    lam: float = 0.25,
    temperature: float = 1.0,
) -> Float[Tensor, "batch vocab"]:
    dists, idx = knn_search(queries, keys, k)
    neighbor_ids = values[idx]
    p_knn = knn_distribution(dists, neighbor_ids, lm_logits.size(-1), temperature)
    return lam * p_knn + (1 - lam) * F.softmax(lm_logits, dim=-1)


def next_token_nll(probs: Float[Tensor, "batch vocab"], targets: Int[Tensor, "batch"]) -> Float[Tensor, ""]:
    return -probs.gather(1, targets.unsqueeze(1)).squeeze(1).clamp_min(1e-12).log().mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, dim = 20, 6
    keys = torch.randn(50, dim)
    values = torch.randint(0, 5, (50,))  # few distinct next tokens: many repeats among neighbours
    queries = torch.randn(3, dim)
    lm_logits = torch.randn(3, vocab)
    probs = interpolate(lm_logits, queries, keys, values)
    assert torch.allclose(probs.sum(-1), torch.ones(3), atol=1e-6)
    for b in range(3):
        d = ((keys - queries[b]) ** 2).sum(-1)
        nearest = d.topk(8, largest=False).indices
        w = F.softmax(-d[nearest], dim=0)
        ref = torch.zeros(vocab)
        for j, n in enumerate(nearest.tolist()):
            ref[values[n]] += w[j]
        ref = 0.25 * ref + 0.75 * F.softmax(lm_logits[b], dim=0)
        assert torch.allclose(probs[b], ref, atol=1e-5)
    targets = torch.tensor([1, 2, 3])
    assert torch.isfinite(next_token_nll(probs, targets))
    print("ok")
