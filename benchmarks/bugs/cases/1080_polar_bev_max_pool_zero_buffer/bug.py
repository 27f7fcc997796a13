import math

import torch
import torch.nn as nn


class PolarBEVPool(nn.Module):
    """Max-pool per-point features into a polar bird's-eye-view grid."""

    def __init__(self, in_dim=4, out_dim=8, grid=(6, 8), max_range=10.0):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_dim, 16), nn.ReLU(), nn.Linear(16, out_dim))
        self.grid = grid
        self.max_range = max_range

    def cell_index(self, xyz):
        # xyz: [N, 3] -> flat polar cell id [N]
        rho = xyz[:, :2].norm(dim=1).clamp(max=self.max_range - 1e-4)
        phi = torch.atan2(xyz[:, 1], xyz[:, 0]) + math.pi
        r_bin = (rho / self.max_range * self.grid[0]).long()
        a_bin = (phi / (2 * math.pi) * self.grid[1]).long().clamp(max=self.grid[1] - 1)
        return r_bin * self.grid[1] + a_bin

    def forward(self, points):
        # points: [N, 4] (x, y, z, intensity)
        feats = self.mlp(points)                                    # [N, C]
        cell = self.cell_index(points[:, :3])                       # [N]
        n_cells = self.grid[0] * self.grid[1]
        bev = feats.new_zeros(n_cells, feats.size(1))               # [R*A, C]
        index = cell.unsqueeze(1).expand_as(feats)                  # [N, C]
        bev = bev.scatter_reduce(0, index, feats, reduce="amax")
        return bev.view(*self.grid, -1), cell


if __name__ == "__main__":
    torch.manual_seed(0)
    pts = torch.cat([torch.randn(300, 3) * 4, torch.rand(300, 1)], dim=1)
    pool = PolarBEVPool()
    bev, cell = pool(pts)
    feats = pool.mlp(pts).detach()
    bev = bev.detach()
    occupied = torch.unique(cell)
    true_max = torch.stack([feats[cell == c].max(0).values for c in occupied])
    pooled = bev.view(-1, 8)[occupied]
    print("min pooled value", float(pooled.min()), "min true cell max", float(true_max.min()))
    print("entries differing", int((pooled != true_max).sum()), "of", pooled.numel())
