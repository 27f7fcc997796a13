import torch


def assign_clusters(x, centroids):
    # x: [N, D] points, centroids: [K, D]
    dists = torch.cdist(x, centroids)  # [N, K]
    return dists.argmin(dim=1)  # [N]


def update_centroids(x, assign, centroids):
    # x: [N, D], assign: [N] cluster id of every point, centroids: [K, D]
    k, d = centroids.shape
    sums = torch.zeros(k, d)  # [K, D] running sum of the members of each cluster
    sums.index_add_(0, assign, x)
    counts = torch.bincount(assign, minlength=k).clamp(min=1).unsqueeze(1)  # [K, 1]
    new = sums / counts
    empty = torch.bincount(assign, minlength=k) == 0
    new[empty] = centroids[empty]
    return new


def kmeans(x, k, iters=5):
    centroids = x[:k].clone()  # [K, D]
    for _ in range(iters):
        assign = assign_clusters(x, centroids)
        centroids = update_centroids(x, assign, centroids)
    return centroids, assign


if __name__ == "__main__":
    torch.manual_seed(0)
    blobs = torch.cat([torch.randn(20, 2) + torch.tensor([5.0, 5.0]), torch.randn(20, 2) - 5.0])
    x = blobs[torch.randperm(40)]
    centroids, assign = kmeans(x, k=2)
    for c in range(2):
        members = [x[i].tolist() for i in range(40) if assign[i] == c]
        mean = [sum(p[j] for p in members) / len(members) for j in range(2)]
        assert torch.allclose(centroids[c], torch.tensor(mean), atol=1e-5), (centroids[c], mean)
    assert sorted(int(v) for v in torch.bincount(assign)) == [20, 20]
    print("ok")
