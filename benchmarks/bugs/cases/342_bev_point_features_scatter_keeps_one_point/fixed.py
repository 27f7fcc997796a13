import torch
import torch.nn as nn


class PointNetEncoder(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_dim, out_dim), nn.ReLU(), nn.Linear(out_dim, out_dim))

    def forward(self, points):
        return self.mlp(points)  # [P, C]


class BEVScatter(nn.Module):
    def __init__(self, grid_x, grid_y, x_range, y_range):
        super().__init__()
        self.grid_x, self.grid_y = grid_x, grid_y
        self.x_range, self.y_range = x_range, y_range

    def cell_index(self, xyz):
        # xyz: [P, 3] -> flat BEV cell id per point, [P]
        ix = ((xyz[:, 0] - self.x_range[0]) / (self.x_range[1] - self.x_range[0]) * self.grid_x).long()
        iy = ((xyz[:, 1] - self.y_range[0]) / (self.y_range[1] - self.y_range[0]) * self.grid_y).long()
        ix = ix.clamp(0, self.grid_x - 1)
        iy = iy.clamp(0, self.grid_y - 1)
        return iy * self.grid_x + ix

    def forward(self, point_feats, xyz):
        # point_feats: [P, C]; output: [C, grid_y, grid_x], max over the points of each cell
        C = point_feats.size(1)
        cells = self.cell_index(xyz)  # [P]
        canvas = point_feats.new_zeros(C, self.grid_y * self.grid_x)
        canvas.scatter_reduce_(1, cells.unsqueeze(0).expand(C, -1), point_feats.t(), reduce="amax", include_self=False)
        return canvas.view(C, self.grid_y, self.grid_x)


if __name__ == "__main__":
    torch.manual_seed(0)
    xyz = torch.rand(40, 3) * torch.tensor([4.0, 4.0, 1.0])
    points = torch.cat([xyz, torch.rand(40, 1)], dim=1)  # x, y, z, intensity
    encoder = PointNetEncoder(4, 6)
    scatter = BEVScatter(grid_x=4, grid_y=4, x_range=(0.0, 4.0), y_range=(0.0, 4.0))
    feats = torch.relu(encoder(points))
    bev = scatter(feats, xyz)
    cells = scatter.cell_index(xyz)
    for c in range(6):
        for cell in range(16):
            members = [feats[p, c] for p in range(40) if cells[p] == cell]
            expected = max(members) if members else torch.tensor(0.0)
            assert torch.allclose(bev[c, cell // 4, cell % 4], expected)
    print("ok")
