import torch
import torch.nn as nn


class VoxelGridPool(nn.Module):
    def __init__(self, voxel_size):
        super().__init__()
        self.voxel_size = voxel_size

    def forward(self, pos, feat):
        # pos:  [N, 3] point coordinates
        # feat: [N, C] point features
        N, C = feat.shape
        cell = torch.floor(pos / self.voxel_size).long()  # [N, 3]
        uniq, cluster = torch.unique(cell, dim=0, return_inverse=True)  # cluster: [N] in [0, M)
        M = uniq.size(0)
        counts = torch.zeros(M).scatter_add_(0, cluster, torch.ones(N))  # [M]
        # mean feature of every occupied voxel: [M, C]
        pooled_feat = torch.zeros(M, C).index_add_(0, cluster, feat) / counts[:, None]
        # representative position = centroid of the voxel's points: [M, 3]
        pooled_pos = torch.zeros(M, 3).scatter_(0, cluster[:, None].expand(-1, 3), pos)
        return pooled_pos, pooled_feat, cluster


def make_cloud(n=256, seed=0):
    g = torch.Generator().manual_seed(seed)
    pos = torch.rand(n, 3, generator=g) * 2.0  # [n, 3] inside a 2m cube
    feat = torch.randn(n, 8, generator=g)  # [n, 8]
    return pos, feat


if __name__ == "__main__":
    pos, feat = make_cloud()
    pool = VoxelGridPool(voxel_size=0.5)
    pooled_pos, pooled_feat, cluster = pool(pos, feat)
    # distance from each pooled point to the true centroid of its voxel
    err = []
    for m in range(pooled_pos.size(0)):
        pts = pos[cluster == m]
        err.append((pooled_pos[m] - pts.mean(0)).norm().item())
    print("voxels:", pooled_pos.size(0), "max centroid error:", max(err))
