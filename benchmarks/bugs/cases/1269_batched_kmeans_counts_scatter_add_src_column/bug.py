import torch
from jaxtyping import Float, Int
from torch import Tensor


def assign_points(
    points: Float[Tensor, "batch n dim"], centroids: Float[Tensor, "batch k dim"]
) -> Int[Tensor, "batch n"]:
    return torch.cdist(points, centroids).argmin(dim=-1)


def update_centroids(
    points: Float[Tensor, "batch n dim"],
    assign: Int[Tensor, "batch n"],
    centroids: Float[Tensor, "batch k dim"],
) -> Float[Tensor, "batch k dim"]:
    b, n, d = points.shape
    k = centroids.shape[1]
    sums = torch.zeros(b, k, d).scatter_add_(1, assign.unsqueeze(-1).expand(-1, -1, d), points)
    ones = torch.ones(b, 1)
    counts = torch.zeros(b, k).scatter_add_(1, assign, ones)
    new = sums / counts.clamp_min(1).unsqueeze(-1)
    return torch.where(counts.unsqueeze(-1) > 0, new, centroids)


def batched_kmeans(points: Float[Tensor, "batch n dim"], k: int, iters: int = 5) -> Float[Tensor, "batch k dim"]:
    centroids = points[:, :k].clone()
    for _ in range(iters):
        assign = assign_points(points, centroids)
        centroids = update_centroids(points, assign, centroids)
    return centroids


if __name__ == "__main__":
    torch.manual_seed(0)
    pts = torch.randn(2, 20, 3)
    cents = batched_kmeans(pts, k=4, iters=3)
    print(cents.shape)
