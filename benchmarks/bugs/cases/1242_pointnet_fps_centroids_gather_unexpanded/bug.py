import torch
import torch.nn as nn


def farthest_point_sample(xyz, npoint):
    B, N, _ = xyz.shape
    idx = torch.zeros(B, npoint, dtype=torch.long)
    dist = torch.full((B, N), float("inf"))
    farthest = torch.zeros(B, dtype=torch.long)
    batch = torch.arange(B)
    for i in range(npoint):
        idx[:, i] = farthest
        centroid = xyz[batch, farthest].unsqueeze(1)
        dist = torch.minimum(dist, ((xyz - centroid) ** 2).sum(-1))
        farthest = dist.argmax(-1)
    return idx


def knn_group(xyz, centroids, k):
    d = ((centroids.unsqueeze(2) - xyz.unsqueeze(1)) ** 2).sum(-1)
    nbr = d.topk(k, dim=-1, largest=False).indices
    B, S, _ = nbr.shape
    flat = nbr.reshape(B, S * k, 1).expand(-1, -1, xyz.size(-1))
    return xyz.gather(1, flat).reshape(B, S, k, xyz.size(-1))


class SetAbstraction(nn.Module):
    def __init__(self, npoint, k, out_channels):
        super().__init__()
        self.npoint = npoint
        self.k = k
        self.mlp = nn.Sequential(nn.Linear(3, out_channels), nn.ReLU(), nn.Linear(out_channels, out_channels))

    def forward(self, xyz):
        fps_idx = farthest_point_sample(xyz, self.npoint)
        new_xyz = xyz.gather(1, fps_idx.unsqueeze(-1))
        grouped = knn_group(xyz, new_xyz, self.k)
        local = grouped - new_xyz.unsqueeze(2)
        feats = self.mlp(local).max(dim=2).values
        return new_xyz, feats


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = SetAbstraction(npoint=8, k=4, out_channels=16)
    xyz = torch.rand(2, 64, 3)
    new_xyz, feats = layer(xyz)
    print("centroids:", tuple(new_xyz.shape), "features:", tuple(feats.shape))
    idx = farthest_point_sample(xyz, 8)
    print("first centroid:", new_xyz[0, 1].tolist(), "expected:", xyz[0, idx[0, 1]].tolist())
