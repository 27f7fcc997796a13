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
        pooled_pos = torch.zeros(M, 3).scatter_add_(0, cluster[:, None].expand(-1, 3), pos) / counts[:, None]
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
    M = pooled_pos.size(0)
    sums = [[0.0] * 3 for _ in range(M)]
    fsums = [[0.0] * 8 for _ in range(M)]
    cnt = [0] * M
    for i in range(pos.size(0)):
        m = int(cluster[i])
        cnt[m] += 1
        for k in range(3):
            sums[m][k] += pos[i, k].item()
        for k in range(8):
            fsums[m][k] += feat[i, k].item()
    for m in range(M):
        for k in range(3):
            assert abs(pooled_pos[m, k].item() - sums[m][k] / cnt[m]) < 1e-5
        for k in range(8):
            assert abs(pooled_feat[m, k].item() - fsums[m][k] / cnt[m]) < 1e-5
    print("ok")
