import torch
import torch.nn as nn


class PointsToBEV(nn.Module):
    """Scatter per-point features onto a dense bird's-eye-view canvas; points
    that fall into the same cell are averaged (SparseConvNet mode 4)."""

    def __init__(self, grid_size, voxel_size, pc_min, num_feats):
        super().__init__()
        self.nx, self.ny = grid_size          # cells along x, y
        self.voxel_size = voxel_size          # metres per cell
        self.pc_min = pc_min                  # (x_min, y_min)
        self.num_feats = num_feats

    def forward(self, points, batch_idx):
        # points:    (N, 2 + C)  x, y, features
        # batch_idx: (N,)        sample of each point
        batch_size = int(batch_idx.max()) + 1
        xy = points[:, :2]
        feats = points[:, 2:]                                                  # (N, C)
        cell = ((xy - torch.tensor(self.pc_min)) / self.voxel_size).long()     # (N, 2)
        canvas = feats.new_zeros(batch_size, self.ny, self.nx, self.num_feats)  # (B, ny, nx, C)
        counts = feats.new_zeros(batch_size, self.ny, self.nx, 1)               # (B, ny, nx, 1)
        canvas[batch_idx, cell[:, 1], cell[:, 0]] = feats
        counts.index_put_((batch_idx, cell[:, 1], cell[:, 0]), torch.ones(len(feats), 1), accumulate=True)
        canvas = canvas / counts.clamp(min=1)
        return canvas.permute(0, 3, 1, 2)                                      # (B, C, ny, nx)


if __name__ == "__main__":
    torch.manual_seed(0)
    scatter = PointsToBEV(grid_size=(4, 4), voxel_size=0.5, pc_min=(0.0, 0.0), num_feats=3)
    pts = torch.cat([torch.rand(30, 2) * 2.0, torch.randn(30, 3)], dim=1)
    bidx = torch.cat([torch.zeros(15, dtype=torch.long), torch.ones(15, dtype=torch.long)])
    bev = scatter(pts, bidx)
    cell = (pts[:, :2] / 0.5).long()
    sel = (bidx == 0) & (cell[:, 0] == int(cell[0, 0])) & (cell[:, 1] == int(cell[0, 1]))
    print("points in cell:", int(sel.sum()))
    print("cell value     :", bev[0, :, int(cell[0, 1]), int(cell[0, 0])].tolist())
    print("mean of points :", pts[sel, 2:].mean(0).tolist())
