import torch


def voxel_keys(coords, extent):
    return (coords[:, 0] * extent + coords[:, 1]) * extent + coords[:, 2]


def sparse_reduce(in_coords, in_feats, out_coords, stride, extent, reduction="amax"):
    down = torch.div(in_coords, stride, rounding_mode="floor")
    out_keys = voxel_keys(out_coords, extent)
    order = torch.argsort(out_keys)
    pos = torch.searchsorted(out_keys[order], voxel_keys(down, extent))
    out_maps = order[pos]
    unique_out_maps, inverse = torch.unique(out_maps, return_inverse=True)
    index = inverse.unsqueeze(1).expand(-1, in_feats.size(1))
    out_features = torch.zeros(unique_out_maps.numel(), in_feats.size(1), dtype=in_feats.dtype)
    out_features.scatter_reduce_(0, index, in_feats, reduction, include_self=False)
    new_out_features = torch.zeros(out_coords.size(0), in_feats.size(1), dtype=in_feats.dtype)
    new_out_features[unique_out_maps] = out_features
    return new_out_features


class SparseMaxPool3d:
    def __init__(self, stride=2, extent=64):
        self.stride, self.extent = stride, extent

    def __call__(self, coords, feats):
        out_coords = torch.unique(torch.div(coords, self.stride, rounding_mode="floor"), dim=0)
        out_coords = torch.cat([out_coords, torch.tensor([[31, 31, 31]])])
        return out_coords, sparse_reduce(coords, feats, out_coords, self.stride, self.extent)


if __name__ == "__main__":
    torch.manual_seed(0)
    coords = torch.randint(0, 8, (50, 3))
    feats = torch.randn(50, 4, dtype=torch.float64)
    pool = SparseMaxPool3d(stride=2)
    out_coords, pooled = pool(coords, feats)
    print("pooled voxels:", out_coords.size(0), "features:", pooled.dtype, tuple(pooled.shape))

    # reference: per-output-voxel max over its input points, zeros for empty voxels
    for m, oc in enumerate(out_coords.tolist()):
        members = [n for n, c in enumerate(coords.tolist()) if [v // 2 for v in c] == oc]
        for ch in range(4):
            expected = max(feats[n, ch].item() for n in members) if members else 0.0
            assert pooled[m, ch].item() == expected
    print("ok")
