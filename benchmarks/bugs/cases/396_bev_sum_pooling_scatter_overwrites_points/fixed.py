import torch
import torch.nn as nn


class PointsToBEV(nn.Module):
    """Sum-pool per-point features into a bird's-eye-view grid.

    Args:
        grid_size (tuple): (nx, ny) number of BEV cells.
        voxel_size (float): cell edge length in metres.
    """

    def __init__(self, grid_size, voxel_size):
        super().__init__()
        self.nx, self.ny = grid_size
        self.voxel_size = voxel_size

    def forward(self, points, feats):
        """
        Args:
            points (Tensor): (N, 3) xyz coordinates, all inside the grid.
            feats (Tensor): (N, C) per-point features.

        Returns:
            Tensor: (C, ny, nx) BEV canvas, each cell holding the sum of its points' features.
        """
        ix = (points[:, 0] / self.voxel_size).long().clamp(0, self.nx - 1)  # (N,)
        iy = (points[:, 1] / self.voxel_size).long().clamp(0, self.ny - 1)  # (N,)
        flat = iy * self.nx + ix  # (N,)
        canvas = feats.new_zeros(feats.size(1), self.ny * self.nx)  # (C, ny*nx)
        index = flat.unsqueeze(0).expand(feats.size(1), -1)  # (C, N)
        canvas.scatter_add_(1, index, feats.t())
        return canvas.view(-1, self.ny, self.nx)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"grid_size": (8, 8), "voxel_size": 0.5, "num_points": 200, "channels": 4}
    pool = PointsToBEV(cfg["grid_size"], cfg["voxel_size"])
    pts = torch.rand(cfg["num_points"], 3) * 4.0
    f = torch.rand(cfg["num_points"], cfg["channels"])
    bev = pool(pts, f)
    nx, ny = cfg["grid_size"]
    ref = torch.zeros(cfg["channels"], ny, nx)
    for n in range(cfg["num_points"]):
        x = min(max(int(pts[n, 0].item() / cfg["voxel_size"]), 0), nx - 1)
        y = min(max(int(pts[n, 1].item() / cfg["voxel_size"]), 0), ny - 1)
        for c in range(cfg["channels"]):
            ref[c, y, x] += f[n, c]
    assert torch.allclose(bev, ref, atol=1e-5)
    print("ok")
