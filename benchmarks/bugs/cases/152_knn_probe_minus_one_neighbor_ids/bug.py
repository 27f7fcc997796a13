import torch
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


def knn_search(
    queries: Float[Tensor, "q dim"], keys: Float[Tensor, "n dim"], k: int
) -> tuple[Float[Tensor, "q k"], Int[Tensor, "q k"]]:
    """Exact inner-product search with the conventions of an ANN index: missing neighbours are id -1."""
    sims = queries @ keys.t()
    found = min(k, keys.shape[0])
    scores, ids = sims.topk(found, dim=1)
    if found < k:
        pad = k - found
        scores = torch.cat([scores, scores.new_full((queries.shape[0], pad), float("-inf"))], dim=1)
        ids = torch.cat([ids, ids.new_full((queries.shape[0], pad), -1)], dim=1)
    return scores, ids


class RetrievalEvaluator:
    def __init__(self, k: int = 10):
        self.k = k

    def fit(self, feats: Float[Tensor, "n dim"], labels: Int[Tensor, "n"]):
        self.gallery = F.normalize(feats, dim=1)
        self.gallery_labels = labels
        return self

    def precision_at_k(self, feats: Float[Tensor, "q dim"], labels: Int[Tensor, "q"]) -> Float[Tensor, "q"]:
        _, ids = knn_search(F.normalize(feats, dim=1), self.gallery, self.k)
        neighbor_labels = self.gallery_labels[ids]  # [q, k]
        return (neighbor_labels == labels.unsqueeze(1)).float().mean(dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    prototypes = torch.randn(3, 16) * 3
    gallery_labels = torch.tensor([0, 1, 2, 0, 1, 2, 2])  # few-shot gallery: 7 labelled samples
    gallery_feats = prototypes[gallery_labels] + 0.3 * torch.randn(7, 16)
    query_labels = torch.randint(0, 3, (30,))
    query_feats = prototypes[query_labels] + 0.3 * torch.randn(30, 16)
    evaluator = RetrievalEvaluator(k=10).fit(gallery_feats, gallery_labels)
    precision = evaluator.precision_at_k(query_feats, query_labels)
    for c in range(3):
        print(f"class {c}: mean precision@k {precision[query_labels == c].mean().item():.3f}")
