import torch
import torch.nn as nn


def scatter_mean_to_grid(point_feats, cell_idx, num_cells):
    """Average point features into the cells of a bird's-eye-view grid.

    Args:
        point_feats (Tensor): (N, C) features of every point.
        cell_idx (LongTensor): (N,) flat BEV cell of every point, in [0, num_cells).
        num_cells (int): H * W.

    Returns:
        Tensor: (num_cells, C) mean feature per cell, 0 for empty cells.
    """
    num_points, channels = point_feats.shape
    index = cell_idx.unsqueeze(1).expand(-1, channels)
    sums = point_feats.new_zeros(num_cells, channels).scatter_add_(0, index, point_feats)
    ones = point_feats.new_ones(num_points, 1)
    counts = point_feats.new_zeros(num_cells, channels).scatter_add_(0, index, ones)
    return sums / counts.clamp(min=1)


class PillarEncoder(nn.Module):
    """Point-wise MLP followed by mean pooling into BEV pillars.

    Args:
        in_channels (int): point attributes (x, y, z, intensity).
        out_channels (int): C.
        grid_size (tuple): (H, W) of the BEV grid.
        cell_size (float): metres per cell.
    """

    def __init__(self, in_channels, out_channels, grid_size, cell_size):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_channels, out_channels), nn.ReLU())
        self.grid_size = grid_size
        self.cell_size = cell_size

    def forward(self, points):
        """
        Args:
            points (Tensor): (N, 4) x, y, z, intensity.

        Returns:
            Tensor: (C, H, W) BEV feature map.
        """
        h, w = self.grid_size
        ix = (points[:, 0] / self.cell_size).long().clamp(0, w - 1)
        iy = (points[:, 1] / self.cell_size).long().clamp(0, h - 1)
        pooled = scatter_mean_to_grid(self.mlp(points), iy * w + ix, h * w)  # (H * W, C)
        return pooled.t().reshape(-1, h, w)


if __name__ == "__main__":
    torch.manual_seed(0)
    points = torch.rand(50, 4) * torch.tensor([4.0, 3.0, 1.0, 1.0])
    encoder = PillarEncoder(in_channels=4, out_channels=8, grid_size=(3, 4), cell_size=1.0)
    with torch.no_grad():
        bev = encoder(points)
    print(bev.shape, bev.abs().sum().item())
