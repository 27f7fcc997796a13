import torch
import torch.nn as nn


class PointVoxelBlock(nn.Module):
    """Average points into voxels, run a voxel MLP, write a dense (z-stacked) BEV map and
    broadcast voxel features back to the points."""

    def __init__(self, in_dim, out_dim, grid):
        super().__init__()
        self.grid = grid                                  # (nz, ny, nx)
        self.mlp = nn.Sequential(nn.Linear(in_dim, out_dim), nn.ReLU())

    def voxelize(self, points, coords):
        # points: [P, C]; coords: [P, 4] = (batch, z, y, x)
        nz, ny, nx = self.grid
        key = ((coords[:, 0] * nz + coords[:, 1]) * ny + coords[:, 2]) * nx + coords[:, 3]
        uniq, inverse = torch.unique(key, return_inverse=True)            # [V], [P]
        sums = points.new_zeros(uniq.numel(), points.shape[1])
        sums.index_add_(0, inverse, points)                               # duplicates accumulate
        counts = torch.bincount(inverse, minlength=uniq.numel()).clamp(min=1)
        return sums / counts.unsqueeze(1).to(points.dtype), uniq, inverse

    def forward(self, points, coords, batch_size):
        nz, ny, nx = self.grid
        voxel_mean, keys, inverse = self.voxelize(points, coords)
        voxel_feat = self.mlp(voxel_mean)                                 # [V, D]
        canvas = voxel_feat.new_zeros(batch_size * nz * ny * nx, voxel_feat.shape[1])
        canvas.index_copy_(0, keys, voxel_feat)                           # keys are unique
        bev = canvas.view(batch_size, nz, ny, nx, -1).permute(0, 4, 1, 2, 3).reshape(batch_size, -1, ny, nx)
        point_feat = voxel_feat.index_select(0, inverse)                  # [P, D]
        return bev, point_feat


if __name__ == "__main__":
    torch.manual_seed(0)
    grid, batch_size = (3, 5, 6), 2
    block = PointVoxelBlock(4, 8, grid)
    P = 200
    coords = torch.stack([torch.randint(0, batch_size, (P,)), torch.randint(0, 3, (P,)),
                          torch.randint(0, 5, (P,)), torch.randint(0, 6, (P,))], 1)
    points = torch.randn(P, 4)
    with torch.no_grad():
        bev, point_feat = block(points, coords, batch_size)

        groups = {}
        for i in range(P):
            groups.setdefault(tuple(int(v) for v in coords[i]), []).append(i)
        expected_bev = torch.zeros(batch_size, 8 * 3, 5, 6)
        for (b, z, y, x), members in groups.items():
            mean = sum(points[i] for i in members) / len(members)
            feat = block.mlp(mean)
            for c in range(8):
                expected_bev[b, c * 3 + z, y, x] = feat[c]
            for i in members:
                assert torch.allclose(point_feat[i], feat, atol=1e-5)
    assert torch.allclose(bev, expected_bev, atol=1e-5)
    print("ok")
