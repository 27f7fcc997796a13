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
        grid.index_add_(0, flat, feats)
        counts = torch.bincount(flat, minlength=self.res ** 3).clamp(min=1)
        grid = grid / counts.unsqueeze(1).to(feats.dtype)
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
    flat = vg.voxel_index(points).tolist()
    sums, cnt = {}, {}
    for i, v in enumerate(flat):
        sums[v] = sums.get(v, 0.0) + float(feats[i, 0])
        cnt[v] = cnt.get(v, 0) + 1
    g = grid.view(-1, 1)
    for v in range(4 ** 3):
        ref = sums[v] / cnt[v] if v in cnt else 0.0
        assert abs(float(g[v, 0]) - ref) < 1e-5
    print("ok")
