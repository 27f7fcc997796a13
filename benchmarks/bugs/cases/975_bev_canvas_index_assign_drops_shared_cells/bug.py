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
    bev[:, flat] = point_feats.t()
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
    print("points per cell:\n", counts)
    print("total points counted:", counts.sum().item(), "of", pts.size(0))
