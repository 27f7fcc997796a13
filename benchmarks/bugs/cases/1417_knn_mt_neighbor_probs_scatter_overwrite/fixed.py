import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class KNNTargetDistribution(nn.Module):
    """kNN-MT: turns retrieved (distance, target token) neighbours into a vocabulary distribution."""

    def __init__(self, datastore_keys: Float[Tensor, "n d"], datastore_vals: Int[Tensor, "n 1"],
                 vocab_size: int, k: int = 8, temperature: float = 10.0):
        super().__init__()
        self.register_buffer("keys", datastore_keys)
        self.register_buffer("vals", datastore_vals)
        self.vocab_size = vocab_size
        self.k = k
        self.temperature = temperature

    def search(self, queries: Float[Tensor, "b d"]) -> tuple[Float[Tensor, "b k"], Int[Tensor, "b k"]]:
        distances = torch.cdist(queries, self.keys)
        nearest, indices = distances.topk(self.k, dim=-1, largest=False)
        return nearest, indices

    def forward(self, queries: Float[Tensor, "b d"]) -> Float[Tensor, "b v"]:
        distances, indices = self.search(queries)
        y: Int[Tensor, "b k 1"] = self.vals[indices]
        probs: Float[Tensor, "b k"] = torch.softmax(-distances / self.temperature, dim=-1)
        full_probs = torch.zeros(queries.size(0), self.vocab_size, device=queries.device)
        full_probs.scatter_add_(dim=-1, index=y.squeeze(2), src=probs)
        return full_probs


def interpolate(model_probs: Float[Tensor, "b v"], knn_probs: Float[Tensor, "b v"], lam: float) -> Float[Tensor, "b v"]:
    return lam * knn_probs + (1.0 - lam) * model_probs


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, dim = 30, 16
    keys = torch.randn(400, dim)
    # decoder states of the datastore map to a handful of frequent target tokens
    vals = torch.randint(0, 6, (400, 1))
    knn = KNNTargetDistribution(keys, vals, vocab_size=vocab, k=8)
    queries = keys[:4] + 0.05 * torch.randn(4, dim)
    knn_probs = knn(queries)
    model_probs = torch.softmax(torch.randn(4, vocab), dim=-1)
    mixed = interpolate(model_probs, knn_probs, lam=0.5)
    distances, indices = knn.search(queries)
    for b in range(queries.size(0)):
        weights = torch.softmax(-distances[b] / knn.temperature, dim=-1).tolist()
        ref = [0.0] * vocab
        for j in range(knn.k):
            ref[int(vals[indices[b, j], 0])] += weights[j]
        assert torch.allclose(knn_probs[b], torch.tensor(ref), atol=1e-6)
    assert torch.allclose(mixed.sum(-1), torch.ones(4), atol=1e-5)
    print("ok")
