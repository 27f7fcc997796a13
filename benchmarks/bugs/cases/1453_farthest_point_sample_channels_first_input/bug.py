import torch


def square_distance(src, dst):
    """
    Input:
        src: source points, [B, N, C]
        dst: target points, [B, M, C]
    Output:
        dist: per-point square distance, [B, N, M]
    """
    return torch.sum((src[:, :, None, :] - dst[:, None, :, :]) ** 2, dim=-1)


def index_points(points, idx):
    """
    Input:
        points: input points data, [B, N, C]
        idx: sample index data, [B, S] or [B, S, K]
    Return:
        new_points: indexed points data, [B, S, C] or [B, S, K, C]
    """
    B = points.shape[0]
    view_shape = [B] + [1] * (idx.dim() - 1)
    batch_indices = torch.arange(B).view(view_shape).expand_as(idx)
    return points[batch_indices, idx, :]


def farthest_point_sample(xyz, npoint):
    """
    Input:
        xyz: pointcloud data, [B, N, 3]
        npoint: number of samples
    Return:
        centroids: sampled pointcloud index, [B, npoint]
    """
    B, N, C = xyz.shape
    centroids = torch.zeros(B, npoint, dtype=torch.long)
    distance = torch.full((B, N), 1e10)
    farthest = torch.zeros(B, dtype=torch.long)
    batch_indices = torch.arange(B)
    for i in range(npoint):
        centroids[:, i] = farthest
        centroid = xyz[batch_indices, farthest, :].view(B, 1, 3)
        dist = torch.sum((xyz - centroid) ** 2, -1)
        distance = torch.minimum(distance, dist)
        farthest = torch.max(distance, -1)[1]
    return centroids


def sample_and_group_knn(npoint, nsample, xyz, points):
    """
    Input:
        npoint: number of centroids
        nsample: neighbours per centroid
        xyz: input points position data, [B, N, 3]
        points: input points data, [B, N, D]
    Return:
        new_xyz: sampled points position data, [B, npoint, 3]
        new_points: sampled points data, [B, npoint, nsample, 3+D]
    """
    fps_idx = farthest_point_sample(xyz, npoint)
    new_xyz = index_points(xyz, fps_idx)
    knn_idx = square_distance(new_xyz, xyz).topk(nsample, dim=-1, largest=False)[1]
    grouped_xyz = index_points(xyz, knn_idx) - new_xyz[:, :, None, :]
    grouped_points = index_points(points, knn_idx)
    return new_xyz, torch.cat([grouped_xyz, grouped_points], dim=-1)


def load_cloud(num_points, seed):
    """Returns one cloud as [1, 3, num_points], the layout the Conv1d encoder consumes."""
    g = torch.Generator().manual_seed(seed)
    xyz = torch.rand(num_points, 3, generator=g) * 2 - 1
    return xyz.t().unsqueeze(0)


if __name__ == "__main__":
    cloud = load_cloud(2048, seed=0)
    normals = torch.nn.functional.normalize(torch.randn(1, 2048, 3), dim=-1)
    new_xyz, groups = sample_and_group_knn(512, 16, cloud, normals)
    print("centroids:", tuple(new_xyz.shape), "groups:", tuple(groups.shape))
