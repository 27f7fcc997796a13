from dataclasses import dataclass

import torch


@dataclass
class GridConfig:
    x_range: tuple = (0.0, 8.0)
    y_range: tuple = (0.0, 8.0)
    cell: float = 2.0
    channels: int = 2

    @property
    def nx(self):
        return int((self.x_range[1] - self.x_range[0]) / self.cell)

    @property
    def ny(self):
        return int((self.y_range[1] - self.y_range[0]) / self.cell)


def cell_ids(points, cfg):
    ix = ((points[:, 0] - cfg.x_range[0]) / cfg.cell).long().clamp(0, cfg.nx - 1)
    iy = ((points[:, 1] - cfg.y_range[0]) / cfg.cell).long().clamp(0, cfg.ny - 1)
    return iy * cfg.nx + ix


def rasterize(points, feats, cfg):
    """Sum point features into bird's-eye-view cells and count the points per cell."""
    cell = cell_ids(points, cfg)
    index = cell.unsqueeze(0).expand(cfg.channels, -1)
    canvas = feats.new_zeros(cfg.channels, cfg.nx * cfg.ny)
    canvas.scatter_(1, index, feats.t())
    counts = feats.new_zeros(cfg.nx * cfg.ny)
    counts.scatter_(0, cell, torch.ones_like(cell, dtype=feats.dtype))
    mean = canvas / counts.clamp(min=1)
    return mean.view(cfg.channels, cfg.ny, cfg.nx), counts.view(cfg.ny, cfg.nx)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = GridConfig()
    points = torch.tensor([[0.5, 0.5], [1.5, 1.0], [1.9, 0.2], [4.1, 4.1], [7.9, 7.9], [6.5, 7.0]])
    feats = torch.tensor([[1.0, 10.0], [3.0, 30.0], [5.0, 50.0], [2.0, 20.0], [4.0, 40.0], [6.0, 60.0]])
    mean, counts = rasterize(points, feats, cfg)
    print("points in cell (0,0):", counts[0, 0].item())
    print("mean feature of cell (0,0):", mean[:, 0, 0].tolist())
