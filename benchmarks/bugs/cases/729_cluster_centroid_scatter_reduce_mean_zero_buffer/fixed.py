import torch


def assign_clusters(points, centroids):
    return torch.cdist(points, centroids).argmin(dim=1)


def update_centroids(points, assignment, num_clusters):
    """Recompute every centroid as the mean of its assigned points.

    Args:
        points (`torch.FloatTensor` of shape `(num_points, dim)`): the data.
        assignment (`torch.LongTensor` of shape `(num_points,)`): cluster id per point.
        num_clusters (`int`): number of clusters.

    Returns:
        `torch.FloatTensor` of shape `(num_clusters, dim)`: the new centroids.
    """
    index = assignment.unsqueeze(1).expand_as(points)
    centroids = points.new_zeros(num_clusters, points.shape[1])
    return centroids.scatter_reduce(0, index, points, reduce="mean", include_self=False)


def kmeans(points, init, steps=3):
    centroids = init.clone()
    for _ in range(steps):
        assignment = assign_clusters(points, centroids)
        centroids = update_centroids(points, assignment, centroids.shape[0])
    return centroids, assignment


if __name__ == "__main__":
    torch.manual_seed(0)
    blobs = [torch.randn(20, 2) * 0.3 + torch.tensor(c) for c in ([4.0, 4.0], [-4.0, 4.0], [0.0, -5.0])]
    points = torch.cat(blobs)
    centroids, assignment = kmeans(points, init=points[[0, 20, 40]])
    new = update_centroids(points, assignment, 3)
    for k in range(3):
        members = [points[i] for i in range(points.shape[0]) if assignment[i].item() == k]
        ref = sum(members) / len(members)
        assert torch.allclose(new[k], ref, atol=1e-5)
    print("ok")
