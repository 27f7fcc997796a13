"""PointNet++-style sampling and grouping utilities written with plain torch ops."""
import torch
import torch.nn as nn


def square_distance(src, dst):
    """Squared Euclidean distance between every pair of points.

    Args:
        src: source points, [B, N, C]
        dst: target points, [B, M, C]
    Returns:
        dist: [B, N, M]
    """
    return (src.unsqueeze(2) - dst.unsqueeze(1)).pow(2).sum(-1)


def index_points(points, idx):
    """Gather points along dim 1 with an index of any trailing shape.

    Args:
        points: [B, N, C]
        idx: [B, S] or [B, S, K]
    Returns:
        new_points: [B, S, C] or [B, S, K, C]
    """
    B, N, C = points.shape
    flat = idx.reshape(B, -1)  # [B, S*K]
    gathered = torch.gather(points, 1, flat.unsqueeze(-1).expand(-1, -1, C))  # [B, S*K, C]
    return gathered.view(*idx.shape, C)


def farthest_point_sample(xyz, npoint):
    """Iterative farthest point sampling.

    Args:
        xyz: [B, N, 3]
        npoint: number of centroids
    Returns:
        centroids: [B, npoint] long
    """
    B, N, _ = xyz.shape
    centroids = torch.zeros(B, npoint, dtype=torch.long)
    distance = torch.full((B, N), float("inf"))
    farthest = torch.zeros(B, dtype=torch.long)
    batch_indices = torch.arange(B)
    for i in range(npoint):
        centroids[:, i] = farthest
        centroid = xyz[batch_indices, farthest].unsqueeze(1)  # [B, 1, 3]
        dist = (xyz - centroid).pow(2).sum(-1)  # [B, N]
        distance = torch.minimum(distance, dist)
        farthest = distance.argmax(-1)
    return centroids


def knn_group(xyz, new_xyz, k):
    """Indices of the k nearest neighbours of every query point.

    Args:
        xyz: [B, N, 3]
        new_xyz: [B, S, 3]
    Returns:
        group_idx: [B, S, k]
    """
    dist = square_distance(new_xyz, xyz)  # [B, S, N]
    return dist.topk(k, dim=-1, largest=False).indices


class SetAbstraction(nn.Module):
    def __init__(self, npoint, k, in_channel, mlp):
        super().__init__()
        self.npoint, self.k = npoint, k
        layers, last = [], in_channel + 3
        for out in mlp:
            layers += [nn.Linear(last, out), nn.ReLU()]
            last = out
        self.mlp = nn.Sequential(*layers)

    def forward(self, xyz, features):
        # xyz: [B, N, 3]  features: [B, N, D]
        fps_idx = farthest_point_sample(xyz, self.npoint)  # [B, S]
        new_xyz = index_points(xyz, fps_idx)  # [B, S, 3]
        group_idx = knn_group(xyz, new_xyz, self.k)  # [B, S, k]
        grouped_xyz = index_points(xyz, group_idx) - new_xyz.unsqueeze(2)  # [B, S, k, 3]
        grouped_feat = index_points(features, group_idx)  # [B, S, k, D]
        h = self.mlp(torch.cat([grouped_xyz, grouped_feat], dim=-1))  # [B, S, k, mlp[-1]]
        return new_xyz, h.max(dim=2).values  # [B, S, 3], [B, S, mlp[-1]]


if __name__ == "__main__":
    torch.manual_seed(0)
    B, N, D = 2, 64, 6
    xyz, feats = torch.rand(B, N, 3), torch.randn(B, N, D)
    sa = SetAbstraction(npoint=16, k=8, in_channel=D, mlp=[32, 64])
    new_xyz, new_feats = sa(xyz, feats)
    assert new_xyz.shape == (B, 16, 3) and new_feats.shape == (B, 16, 64)

    idx = knn_group(xyz, new_xyz, 8)
    grouped = index_points(feats, idx)
    for b in range(B):
        for s in range(16):
            for j in range(8):
                assert torch.equal(grouped[b, s, j], feats[b, int(idx[b, s, j])])
    fps = farthest_point_sample(xyz, 16)
    for b in range(B):
        for s in range(16):
            assert torch.equal(new_xyz[b, s], xyz[b, int(fps[b, s])])
    print("ok")
