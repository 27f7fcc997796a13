import torch


def rasterize_points(points, point_feats, grid_hw, cell_size, origin=(0.0, 0.0)):
    """Accumulate per-point features on a bird's-eye-view grid.

    Args:
        points (`torch.FloatTensor` of shape `(num_points, 3)`):
            x, y, z coordinates in metres.
        point_feats (`torch.FloatTensor` of shape `(num_points, num_channels)`):
            features to accumulate, e.g. (intensity, 1.0) so that the second channel counts points.
        grid_hw (`tuple(int, int)`): height and width of the BEV grid.
        cell_size (`float`): side of one BEV cell in metres.

    Returns:
        `torch.FloatTensor` of shape `(num_channels, height, width)`: the per-cell *sum* of the
        features of all points that fall into the cell.
    """
    height, width = grid_hw
    ix = ((points[:, 0] - origin[0]) / cell_size).floor().long().clamp(0, width - 1)
    iy = ((points[:, 1] - origin[1]) / cell_size).floor().long().clamp(0, height - 1)
    flat = iy * width + ix

    bev = point_feats.new_zeros(point_feats.size(1), height * width)
    bev.index_add_(1, flat, point_feats.t())
    return bev.view(-1, height, width)


def density_and_mean_intensity(points, intensity, grid_hw=(4, 4), cell_size=0.5):
    feats = torch.stack([intensity, torch.ones_like(intensity)], dim=1)
    bev = rasterize_points(points, feats, grid_hw, cell_size)
    counts = bev[1]
    mean_int = bev[0] / counts.clamp(min=1)
    return counts, mean_int


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    pts = torch.rand(40, 3, generator=g) * torch.tensor([2.0, 2.0, 1.0])
    inten = torch.rand(40, generator=g)
    counts, mean_int = density_and_mean_intensity(pts, inten)
    ref_cnt = [[0] * 4 for _ in range(4)]
    ref_sum = [[0.0] * 4 for _ in range(4)]
    for p, v in zip(pts.tolist(), inten.tolist()):
        cx = min(max(int(p[0] // 0.5), 0), 3)
        cy = min(max(int(p[1] // 0.5), 0), 3)
        ref_cnt[cy][cx] += 1
        ref_sum[cy][cx] += v
    for y in range(4):
        for x in range(4):
            assert counts[y, x].item() == ref_cnt[y][x]
            expected = ref_sum[y][x] / max(ref_cnt[y][x], 1)
            assert abs(mean_int[y, x].item() - expected) < 1e-5
    assert counts.sum().item() == pts.size(0)
    print("ok")
