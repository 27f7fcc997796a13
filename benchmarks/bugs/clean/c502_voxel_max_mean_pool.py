import torch


def voxel_ids(points, voxel_size, grid):
    """Flat voxel id per point.

    Args:
        points: (N, 3) float coordinates in [0, grid * voxel_size).
    Returns:
        (N,) int64 voxel ids in [0, grid**3).
    """
    coords = (points / voxel_size).floor().long().clamp(0, grid - 1)  # (N, 3)
    return (coords[:, 0] * grid + coords[:, 1]) * grid + coords[:, 2]


def pool_voxels(feats, ids, num_voxels):
    """Max- and mean-pools point features into voxels.

    Args:
        feats: (N, C) point features (may be negative).
        ids: (N,) voxel id of each point.
        num_voxels: V.
    Returns:
        vmax: (V, C), vmean: (V, C); empty voxels are 0.
    """
    C = feats.size(1)
    index = ids.unsqueeze(1).expand(-1, C)  # (N, C)
    vmax = feats.new_zeros(num_voxels, C).scatter_reduce(0, index, feats, reduce="amax", include_self=False)
    sums = feats.new_zeros(num_voxels, C).scatter_add_(0, index, feats)  # (V, C)
    counts = feats.new_zeros(num_voxels).index_add_(0, ids, torch.ones_like(ids, dtype=feats.dtype))  # (V,)
    vmean = sums / counts.clamp(min=1).unsqueeze(1)  # (V, C)
    return vmax, vmean


if __name__ == "__main__":
    torch.manual_seed(0)
    grid, size = 3, 0.5
    pts = torch.rand(40, 3) * grid * size  # (40, 3)
    feats = torch.randn(40, 5) - 2.0  # (40, 5), mostly negative
    ids = voxel_ids(pts, size, grid)
    V = grid ** 3
    vmax, vmean = pool_voxels(feats, ids, V)
    for v in range(V):
        members = [i for i in range(40) if ids[i].item() == v]
        for c in range(5):
            if members:
                vals = [feats[i, c].item() for i in members]
                assert abs(vmax[v, c].item() - max(vals)) < 1e-6
                assert abs(vmean[v, c].item() - sum(vals) / len(vals)) < 1e-5
            else:
                assert vmax[v, c].item() == 0.0 and vmean[v, c].item() == 0.0
    print("ok")
