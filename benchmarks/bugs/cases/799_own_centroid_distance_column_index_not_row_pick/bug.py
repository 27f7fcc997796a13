import torch


def kmeans(x, k, iters=10, seed=0):
    # x: [N, D] -> centroids [K, D], labels [N]
    g = torch.Generator().manual_seed(seed)
    centroids = x[torch.randperm(x.shape[0], generator=g)[:k]].clone()
    for _ in range(iters):
        labels = torch.cdist(x, centroids).argmin(dim=1)
        for j in range(k):
            if (labels == j).any():
                centroids[j] = x[labels == j].mean(dim=0)
    return centroids, torch.cdist(x, centroids).argmin(dim=1)


def closest_fraction_mask(x, centroids, labels, fraction=0.2):
    dist = torch.cdist(x, centroids)  # [N, K] distance of every sample to every centroid
    own = dist[:, labels]  # [N] distance of each sample to its own centroid
    keep = torch.zeros_like(own, dtype=torch.bool)
    for j in range(centroids.shape[0]):
        in_cluster = labels == j  # [N]
        cutoff = torch.quantile(own[in_cluster], fraction)
        keep |= in_cluster & (own <= cutoff)
    return keep  # [N] samples whose cluster label is propagated


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.cat([torch.randn(40, 2) + torch.tensor([4.0, 0.0]), torch.randn(40, 2) - torch.tensor([4.0, 0.0])])
    centroids, labels = kmeans(x, k=2)
    keep = closest_fraction_mask(x, centroids, labels)
    print("mask shape:", tuple(keep.shape), "selected:", int(keep.sum()), "of", x.shape[0])
