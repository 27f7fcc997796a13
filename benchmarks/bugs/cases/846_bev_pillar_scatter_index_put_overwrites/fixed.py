import torch


class PointsToBEV:
    """Rasterise per-point features onto a bird's-eye-view grid (port of the TF scatter_nd version)."""

    def __init__(self, grid_hw=(8, 8), cell_size=1.0):
        self.h, self.w = grid_hw
        self.cell = cell_size

    def cell_index(self, xyz):
        # xyz: [N, 3] metres -> (row, col) of the BEV cell, each [N]
        col = (xyz[:, 0] / self.cell).floor().long().clamp(0, self.w - 1)
        row = (xyz[:, 1] / self.cell).floor().long().clamp(0, self.h - 1)
        return row, col

    def __call__(self, xyz, feats, batch_idx, batch_size):
        # xyz: [N, 3], feats: [N, C], batch_idx: [N] -> canvas [B, C, H, W]
        row, col = self.cell_index(xyz)
        canvas = feats.new_zeros(batch_size, self.h, self.w, feats.size(1))
        canvas.index_put_((batch_idx, row, col), feats, accumulate=True)
        return canvas.permute(0, 3, 1, 2)


def make_scene(num_points, batch_size, seed=0):
    g = torch.Generator().manual_seed(seed)
    xyz = torch.rand(num_points, 3, generator=g) * 4.0   # dense: many points per cell
    feats = torch.rand(num_points, 2, generator=g)
    batch_idx = torch.randint(0, batch_size, (num_points,), generator=g)
    return xyz, feats, batch_idx


if __name__ == "__main__":
    xyz, feats, batch_idx = make_scene(64, 2)
    bev = PointsToBEV()(xyz, feats, batch_idx, 2)          # [2, 2, 8, 8]
    ref = torch.zeros(2, 2, 8, 8)
    for i in range(xyz.size(0)):
        c = min(max(int(xyz[i, 0] // 1.0), 0), 7)
        r = min(max(int(xyz[i, 1] // 1.0), 0), 7)
        for ch in range(2):
            ref[batch_idx[i], ch, r, c] += feats[i, ch]
    assert torch.allclose(bev, ref, atol=1e-6)
    print("ok")
