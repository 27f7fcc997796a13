import torch


class VoxelFeatureGrid:
    def __init__(self, resolution, lo=-1.0, hi=1.0):
        self.res = resolution
        self.lo, self.hi = lo, hi

    def voxel_index(self, points):
        cells = ((points - self.lo) / (self.hi - self.lo) * self.res).long().clamp(0, self.res - 1)
        return (cells[:, 0] * self.res + cells[:, 1]) * self.res + cells[:, 2]

    def fill(self, points, feats):
        flat = self.voxel_index(points)
        grid = feats.new_zeros(self.res ** 3, feats.size(1))
        grid[flat] = feats
        return grid.view(self.res, self.res, self.res, -1)

    def query(self, grid, points):
        flat = self.voxel_index(points)
        return grid.view(-1, grid.size(-1))[flat]


if __name__ == "__main__":
    torch.manual_seed(0)
    points = torch.rand(500, 3) * 2 - 1
    feats = torch.randn(500, 1)
    vg = VoxelFeatureGrid(resolution=4)
    grid = vg.fill(points, feats)
    cell = vg.voxel_index(points[:1])
    members = (vg.voxel_index(points) == cell).nonzero().squeeze(1)
    print("voxel value", float(grid.view(-1, 1)[cell]), "mean of its points", float(feats[members].mean()))
