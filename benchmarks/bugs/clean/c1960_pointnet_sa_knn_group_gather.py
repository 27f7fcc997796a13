import torch
from torch import nn


def square_distance(src, dst):
    """
    Args:
        src: (B, N, C) source points
        dst: (B, M, C) target points
    Returns:
        dist: (B, N, M) squared euclidean distances
    """
    dist = -2 * torch.matmul(src, dst.transpose(1, 2))
    dist += (src ** 2).sum(dim=-1).unsqueeze(-1)
    dist += (dst ** 2).sum(dim=-1).unsqueeze(-2)
    return dist.clamp(min=0)


def farthest_point_sample(xyz, npoint):
    """
    Args:
        xyz: (B, N, 3)
    Returns:
        centroids: (B, npoint) indices of the sampled points
    """
    B, N, _ = xyz.shape
    centroids = torch.zeros(B, npoint, dtype=torch.long)
    distance = torch.full((B, N), 1e10)
    farthest = torch.zeros(B, dtype=torch.long)
    batch_indices = torch.arange(B)
    for i in range(npoint):
        centroids[:, i] = farthest
        centroid = xyz[batch_indices, farthest].unsqueeze(1)
        dist = ((xyz - centroid) ** 2).sum(dim=-1)
        distance = torch.minimum(distance, dist)
        farthest = distance.argmax(dim=-1)
    return centroids


def knn_group(points, new_xyz, xyz, k):
    """
    Args:
        points: (B, N, C) per-point features
        new_xyz: (B, S, 3) group centres
        xyz: (B, N, 3) all points
    Returns:
        grouped: (B, S, k, C) features of the k nearest points of every centre
        idx: (B, S, k)
    """
    B, N, C = points.shape
    S = new_xyz.shape[1]
    idx = square_distance(new_xyz, xyz).topk(k, dim=-1, largest=False).indices
    flat_idx = idx.reshape(B, S * k, 1).expand(-1, -1, C)
    grouped = torch.gather(points, 1, flat_idx).reshape(B, S, k, C)
    return grouped, idx


class SetAbstraction(nn.Module):
    def __init__(self, npoint, k, in_channels, out_channels):
        super().__init__()
        self.npoint, self.k = npoint, k
        self.mlp = nn.Sequential(nn.Linear(in_channels + 3, out_channels), nn.ReLU())

    def forward(self, xyz, points):
        B = xyz.shape[0]
        fps_idx = farthest_point_sample(xyz, self.npoint)
        new_xyz = torch.gather(xyz, 1, fps_idx.unsqueeze(-1).expand(-1, -1, 3))
        grouped_points, idx = knn_group(points, new_xyz, xyz, self.k)
        grouped_xyz, _ = knn_group(xyz, new_xyz, xyz, self.k)
        grouped_xyz = grouped_xyz - new_xyz.unsqueeze(2)
        feats = self.mlp(torch.cat([grouped_xyz, grouped_points], dim=-1))
        return new_xyz, feats.max(dim=2).values, idx, fps_idx


if __name__ == "__main__":
    torch.manual_seed(0)
    B, N, C = 2, 64, 6
    xyz = torch.rand(B, N, 3)
    points = torch.randn(B, N, C)
    sa = SetAbstraction(npoint=16, k=8, in_channels=C, out_channels=32)
    with torch.no_grad():
        new_xyz, new_points, idx, fps_idx = sa(xyz, points)
    assert new_xyz.shape == (B, 16, 3) and new_points.shape == (B, 16, 32)

    pts, feats = xyz.tolist(), points.tolist()
    for b in range(B):
        for s in range(16):
            centre = pts[b][int(fps_idx[b, s])]
            assert new_xyz[b, s].tolist() == centre
            d = [sum((pts[b][n][c] - centre[c]) ** 2 for c in range(3)) for n in range(N)]
            nearest = sorted(range(N), key=lambda n: d[n])[:8]
            assert sorted(idx[b, s].tolist()) == sorted(nearest)
            rows = []
            for n in idx[b, s].tolist():
                rel = [pts[b][n][c] - centre[c] for c in range(3)]
                rows.append(sa.mlp(torch.tensor(rel + feats[b][n])))
            ref = torch.stack(rows).max(dim=0).values
            assert torch.allclose(new_points[b, s], ref, atol=1e-5)
    print("ok")
