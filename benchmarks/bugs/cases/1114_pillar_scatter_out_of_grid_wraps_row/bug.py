import torch
import torch.nn as nn

CFG = {
    "range_min": [0.0, -4.0],
    "range_max": [8.0, 4.0],
    "voxel_size": [1.0, 1.0],
    "pillar_channels": 3,
}


def grid_shape(cfg):
    nx = int((cfg["range_max"][0] - cfg["range_min"][0]) / cfg["voxel_size"][0])
    ny = int((cfg["range_max"][1] - cfg["range_min"][1]) / cfg["voxel_size"][1])
    return nx, ny


def pillarize(points, batch_idx, cfg):
    lo = torch.tensor(cfg["range_min"])
    size = torch.tensor(cfg["voxel_size"])
    cells = ((points[:, :2] - lo) / size).floor().long()
    coords = torch.stack([batch_idx, cells[:, 1], cells[:, 0]], dim=1)
    return coords, points


class PillarFeatureNet(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, pts):
        return torch.relu(self.lin(pts))


class PointPillarsScatter(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.nx, self.ny = grid_shape(cfg)
        self.channels = cfg["pillar_channels"]

    def forward(self, pillar_feats, coords, batch_size):
        canvases = []
        for b in range(batch_size):
            sel = coords[:, 0] == b
            this_coords = coords[sel]
            flat = this_coords[:, 1] * self.nx + this_coords[:, 2]
            canvas = pillar_feats.new_zeros(self.channels, self.nx * self.ny)
            canvas[:, flat] = pillar_feats[sel].t()
            canvases.append(canvas.view(self.channels, self.ny, self.nx))
        return torch.stack(canvases)


if __name__ == "__main__":
    torch.manual_seed(0)
    points = torch.tensor([[1.5, -3.5, 0.2, 0.9],
                           [6.5, 0.5, 0.1, 0.4],
                           [9.5, -2.5, 0.3, 0.7],   # far-range return
                           [3.5, 2.5, 0.5, 0.2]])
    batch_idx = torch.tensor([0, 0, 0, 1])
    coords, pts = pillarize(points, batch_idx, CFG)
    pfn = PillarFeatureNet(4, CFG["pillar_channels"])
    with torch.no_grad():
        bev = PointPillarsScatter(CFG)(pfn(pts) + 1.0, coords, batch_size=2)
    occupied = (bev.abs().sum(1) > 0).nonzero().tolist()
    print("occupied (b, y, x) cells:", occupied)
