import torch


class HeightMapEncoder(torch.nn.Module):
    def __init__(self, grid_x, grid_y, cell_size):
        super().__init__()
        self.grid_x = grid_x
        self.grid_y = grid_y
        self.cell_size = cell_size
        self.proj = torch.nn.Conv2d(1, 4, kernel_size=1)

    def max_height(self, points):
        ix = (points[:, 0] / self.cell_size).long().clamp(0, self.grid_x - 1)
        iy = (points[:, 1] / self.cell_size).long().clamp(0, self.grid_y - 1)
        cell = ix * self.grid_y + iy
        heights = torch.zeros(self.grid_x * self.grid_y)
        heights.scatter_reduce_(0, cell, points[:, 2], reduce="amax", include_self=False)
        return heights.view(self.grid_x, self.grid_y)

    def forward(self, points):
        bev = self.max_height(points)
        return self.proj(bev[None, None])


if __name__ == "__main__":
    torch.manual_seed(0)
    enc = HeightMapEncoder(grid_x=4, grid_y=4, cell_size=1.0)
    points = torch.rand(40, 3) * torch.tensor([4.0, 4.0, 2.0])
    bev = enc.max_height(points)
    ref = [[0.0] * 4 for _ in range(4)]
    seen = [[False] * 4 for _ in range(4)]
    for x, y, z in points.tolist():
        i, j = min(int(x / 1.0), 3), min(int(y / 1.0), 3)
        ref[i][j] = z if not seen[i][j] else max(ref[i][j], z)
        seen[i][j] = True
    assert torch.allclose(bev, torch.tensor(ref)), (bev, ref)
    assert enc(points).shape == (1, 4, 4, 4)
    print("ok")
