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
    bev.index_put_((batch_idx, iy, ix), points[:, 3], accumulate=True)
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
    cfg = GridConfig()
    ref = [[[0.0] * 8 for _ in range(8)] for _ in range(2)]
    for n in range(points.shape[0]):
        x, y, _, inten = points[n].tolist()
        cx = min(max(int((x - cfg.x_range[0]) // cfg.cell), 0), 7)
        cy = min(max(int((y - cfg.y_range[0]) // cfg.cell), 0), 7)
        ref[int(batch_idx[n])][cy][cx] += inten
    assert torch.allclose(bev, torch.tensor(ref), atol=1e-4)
    print("ok")
