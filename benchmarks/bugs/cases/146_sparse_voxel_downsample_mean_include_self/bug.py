import torch
import torch.nn as nn


class SparseDownsample(nn.Module):
    """Average-pool a sparse voxel tensor by an integer factor."""

    def __init__(self, factor):
        super().__init__()
        self.factor = factor

    def forward(self, coords, feats):
        # coords: [N, 4] (batch, x, y, z) integer voxel coordinates
        # feats:  [N, C] features of the occupied voxels
        coarse = coords.clone()
        coarse[:, 1:] = torch.div(coarse[:, 1:], self.factor, rounding_mode="floor")
        new_coords, inverse = torch.unique(coarse, dim=0, return_inverse=True)  # [M, 4], [N]
        out = torch.zeros(new_coords.shape[0], feats.shape[1], dtype=feats.dtype)  # [M, C]
        index = inverse.unsqueeze(1).expand(-1, feats.shape[1])  # [N, C]
        out = out.scatter_reduce(0, index, feats, reduce="mean")
        return new_coords, out


class SparseUpsample(nn.Module):
    def __init__(self, factor):
        super().__init__()
        self.factor = factor

    def forward(self, fine_coords, coarse_coords, coarse_feats):
        # fine_coords: [N, 4]; coarse_coords: [M, 4]; coarse_feats: [M, C]
        parent = fine_coords.clone()
        parent[:, 1:] = torch.div(parent[:, 1:], self.factor, rounding_mode="floor")
        lookup = {tuple(c): i for i, c in enumerate(coarse_coords.tolist())}
        idx = torch.tensor([lookup[tuple(p)] for p in parent.tolist()])
        return coarse_feats.index_select(0, idx)


if __name__ == "__main__":
    torch.manual_seed(0)
    coords = torch.cat([torch.zeros(40, 1, dtype=torch.long), torch.randint(0, 6, (40, 3))], dim=1)
    coords = torch.unique(coords, dim=0)
    feats = torch.rand(coords.shape[0], 3) + 1.0  # all features in [1, 2)
    down, up = SparseDownsample(2), SparseUpsample(2)
    coarse_coords, coarse_feats = down(coords, feats)
    restored = up(coords, coarse_coords, coarse_feats)
    print("coarse voxels:", coarse_coords.shape[0], "min pooled value:", coarse_feats.min().item(), "(inputs are >= 1)")
    print("mean abs change after down/up:", (restored - feats).abs().mean().item())
