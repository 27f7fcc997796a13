import torch
import torch.nn as nn


class SparseMaxPool3d(nn.Module):
    """Max-pools active voxels into a coarser grid (kernel == stride)."""

    def __init__(self, kernel_size: int = 2):
        super().__init__()
        self.kernel_size = kernel_size

    def forward(self, feats, coords):
        # feats:  [N, C] features of the active voxels
        # coords: [N, 4] (batch, z, y, x) integer voxel coordinates
        down = coords.clone()
        down[:, 1:] = torch.div(coords[:, 1:], self.kernel_size, rounding_mode="floor")
        # out_coords: [M, 4], inverse: [N] -> row of the coarse voxel
        out_coords, inverse = torch.unique(down, dim=0, return_inverse=True)
        out = feats.new_zeros(out_coords.shape[0], feats.shape[1])  # [M, C]
        index = inverse.unsqueeze(1).expand(-1, feats.shape[1])     # [N, C]
        out.scatter_reduce_(0, index, feats, reduce="amax", include_self=False)
        return out, out_coords


def make_voxels(seed=0):
    g = torch.Generator().manual_seed(seed)
    coords = torch.randint(0, 8, (64, 4), generator=g)
    coords[:, 0] = torch.randint(0, 2, (64,), generator=g)
    coords = torch.unique(coords, dim=0)
    # features after a linear layer without ReLU: many voxels are all-negative
    feats = torch.randn(coords.shape[0], 6, generator=g) - 1.5
    return feats, coords


def reference(feats, coords, k):
    best = {}
    for f, c in zip(feats.tolist(), coords.tolist()):
        key = (c[0], c[1] // k, c[2] // k, c[3] // k)
        if key not in best:
            best[key] = list(f)
        else:
            best[key] = [max(a, b) for a, b in zip(best[key], f)]
    return best


if __name__ == "__main__":
    feats, coords = make_voxels()
    pooled, out_coords = SparseMaxPool3d(2)(feats, coords)
    ref = reference(feats, coords, 2)
    assert len(ref) == out_coords.shape[0]
    for row, c in zip(pooled.tolist(), out_coords.tolist()):
        exp = ref[tuple(c)]
        assert all(abs(a - b) < 1e-6 for a, b in zip(row, exp)), (c, row, exp)
    print("ok")
