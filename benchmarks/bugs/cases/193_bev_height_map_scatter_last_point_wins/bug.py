import torch


class BEVRasterizer:
    """Turns LiDAR sweeps into bird's-eye-view maps for a 2-D detector backbone."""

    def __init__(self, x_range=(0.0, 8.0), y_range=(-4.0, 4.0), cell=1.0):
        self.x_min, self.y_min, self.cell = x_range[0], y_range[0], cell
        self.nx = int((x_range[1] - x_range[0]) / cell)
        self.ny = int((y_range[1] - y_range[0]) / cell)

    def cell_index(self, points):
        """
        Args:
            points: float tensor of shape (batch, num_points, 3) with x, y, z in metres.

        Returns:
            long tensor of shape (batch, num_points): flat cell id ix * ny + iy of each point.
        """
        ix = ((points[..., 0] - self.x_min) / self.cell).long().clamp(0, self.nx - 1)
        iy = ((points[..., 1] - self.y_min) / self.cell).long().clamp(0, self.ny - 1)
        return ix * self.ny + iy

    def height_map(self, points):
        """Maximum point height per cell, 0 for empty cells.

        Args:
            points: float tensor of shape (batch, num_points, 3).

        Returns:
            float tensor of shape (batch, nx, ny).
        """
        batch = points.size(0)
        flat = points.new_zeros(batch, self.nx * self.ny)
        idx = self.cell_index(points)
        flat.scatter_(1, idx, points[..., 2])
        return flat.view(batch, self.nx, self.ny)

    def occupancy(self, points):
        """
        Args:
            points: float tensor of shape (batch, num_points, 3).

        Returns:
            float tensor of shape (batch, nx, ny): 1 where at least one point falls.
        """
        batch = points.size(0)
        flat = points.new_zeros(batch, self.nx * self.ny)
        flat.scatter_(1, self.cell_index(points), 1.0)
        return flat.view(batch, self.nx, self.ny)


def make_sweep(batch, num_points, seed):
    g = torch.Generator().manual_seed(seed)
    xy = torch.rand(batch, num_points, 2, generator=g) * torch.tensor([8.0, 8.0]) - torch.tensor([0.0, 4.0])
    z = torch.rand(batch, num_points, 1, generator=g) * 2.0
    return torch.cat([xy, z], dim=-1)


if __name__ == "__main__":
    raster = BEVRasterizer()
    points = make_sweep(batch=2, num_points=200, seed=0)
    heights = raster.height_map(points)
    ref = torch.zeros(2, raster.nx, raster.ny)
    for b in range(2):
        for x, y, z in points[b].tolist():
            ix = min(max(int((x - raster.x_min) / raster.cell), 0), raster.nx - 1)
            iy = min(max(int((y - raster.y_min) / raster.cell), 0), raster.ny - 1)
            ref[b, ix, iy] = max(ref[b, ix, iy].item(), z)
    print("cells with the wrong height:", int((heights != ref).sum()), "of", ref.numel())
    print("mean height map:", round(heights.mean().item(), 4), "reference:", round(ref.mean().item(), 4))
