from dataclasses import dataclass

import torch


@dataclass
class GridConfig:
    x_range: tuple = (0.0, 8.0)
    y_range: tuple = (-4.0, 4.0)
    cell: float = 1.0


def rasterize_intensity(points, batch_idx, batch_size, cfg):
    # points:    [N, 4]  (x, y, z, intensity) lidar returns of the whole batch
    # batch_idx: [N]     sample each point belongs to
    # returns:   [B, H, W] summed intensity per BEV cell
    W = int((cfg.x_range[1] - cfg.x_range[0]) / cfg.cell)
    H = int((cfg.y_range[1] - cfg.y_range[0]) / cfg.cell)
    ix = ((points[:, 0] - cfg.x_range[0]) / cfg.cell).floor().long().clamp(0, W - 1)   # [N]
    iy = ((points[:, 1] - cfg.y_range[0]) / cfg.cell).floor().long().clamp(0, H - 1)   # [N]
    bev = points.new_zeros(batch_size, H, W)                                            # [B, H, W]
    bev.index_put_((batch_idx, iy, ix), points[:, 3])
    return bev


def sample_sweeps(batch_size, points_per_sweep, gen):
    xyz = torch.rand(batch_size * points_per_sweep, 3, generator=gen) * torch.tensor([8.0, 8.0, 2.0])
    xyz[:, 1] -= 4.0
    intensity = torch.rand(batch_size * points_per_sweep, 1, generator=gen)
    batch_idx = torch.arange(batch_size).repeat_interleave(points_per_sweep)
    return torch.cat([xyz, intensity], dim=1), batch_idx


if __name__ == "__main__":
    gen = torch.Generator().manual_seed(0)
    points, batch_idx = sample_sweeps(batch_size=2, points_per_sweep=300, gen=gen)
    bev = rasterize_intensity(points, batch_idx, 2, GridConfig())
    per_sample = torch.zeros(2).index_add_(0, batch_idx, points[:, 3])
    print("total intensity per sweep:", per_sample)
    print("total intensity in BEV map:", bev.sum(dim=(1, 2)))
