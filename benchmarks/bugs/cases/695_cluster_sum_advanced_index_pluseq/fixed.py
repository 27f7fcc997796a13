import torch
from jaxtyping import Float, Int


def assign_clusters(
    feats: Float[torch.Tensor, "n d"], centroids: Float[torch.Tensor, "k d"]
) -> Int[torch.Tensor, " n"]:
    return torch.cdist(feats, centroids).argmin(dim=1)


def update_centroids(
    feats: Float[torch.Tensor, "n d"],
    assign: Int[torch.Tensor, " n"],
    centroids: Float[torch.Tensor, "k d"],
) -> Float[torch.Tensor, "k d"]:
    k = centroids.size(0)
    sums = torch.zeros_like(centroids)
    counts = torch.zeros(k)
    sums.index_add_(0, assign, feats)
    counts.index_add_(0, assign, torch.ones_like(assign, dtype=counts.dtype))
    new = sums / counts.clamp(min=1).unsqueeze(1)
    empty = counts == 0
    new[empty] = centroids[empty]
    return new


def kmeans_step(feats, centroids):
    assign = assign_clusters(feats, centroids)
    return assign, update_centroids(feats, assign, centroids)


if __name__ == "__main__":
    torch.manual_seed(0)
    feats = torch.cat([torch.randn(6, 2) + 4, torch.randn(6, 2) - 4])
    centroids = torch.tensor([[3.0, 3.0], [-3.0, -3.0], [10.0, -10.0]])
    assign, new = kmeans_step(feats, centroids)
    for c in range(3):
        members = [feats[i] for i in range(feats.size(0)) if assign[i].item() == c]
        expected = sum(members) / len(members) if members else centroids[c]
        assert torch.allclose(new[c], expected, atol=1e-5), (c, new[c], expected)
    print("ok")
