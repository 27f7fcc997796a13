import torch


def voxelize(xyz, voxel_size, grid):
    # xyz: [N, 3] -> flat voxel id per point, [N]
    ijk = (xyz / voxel_size).floor().long().clamp(min=0)
    ijk = torch.minimum(ijk, torch.tensor(grid) - 1)
    return (ijk[:, 0] * grid[1] + ijk[:, 1]) * grid[2] + ijk[:, 2]


def voxel_stats(feats, vox, num_voxels):
    """Per-voxel mean and max of point features.

    Args:
        feats: [N, C] point features.
        vox: [N] voxel id of every point.
    Returns:
        mean [V, C], max [V, C], count [V]; empty voxels are zero.
    """
    N, C = feats.shape
    count = torch.zeros(num_voxels).index_add_(0, vox, torch.ones(N))
    total = feats.new_zeros(num_voxels, C).index_add_(0, vox, feats)
    mean = total / count.clamp(min=1).unsqueeze(1)
    idx = vox.unsqueeze(1).expand(-1, C)
    vmax = feats.new_zeros(num_voxels, C).scatter_reduce(0, idx, feats, reduce="amax", include_self=False)
    return mean, vmax, count


def voxel_to_point(voxel_feats, vox):
    # voxel_feats: [V, C] -> [N, C], every point reads its voxel's row
    return voxel_feats.gather(0, vox.unsqueeze(1).expand(-1, voxel_feats.size(1)))


if __name__ == "__main__":
    torch.manual_seed(0)
    grid = (3, 3, 2)
    xyz = torch.rand(40, 3) * torch.tensor([3.0, 3.0, 2.0])
    feats = torch.randn(40, 5) - 0.5
    vox = voxelize(xyz, 1.0, grid)
    V = grid[0] * grid[1] * grid[2]
    mean, vmax, count = voxel_stats(feats, vox, V)
    centered = feats - voxel_to_point(mean, vox)
    for v in range(V):
        rows = [i for i in range(40) if vox[i].item() == v]
        assert count[v].item() == len(rows)
        for c in range(5):
            vals = [feats[i, c].item() for i in rows]
            exp_mean = sum(vals) / len(vals) if vals else 0.0
            exp_max = max(vals) if vals else 0.0
            assert abs(mean[v, c].item() - exp_mean) < 1e-5
            assert abs(vmax[v, c].item() - exp_max) < 1e-6
    for i in range(40):
        assert torch.allclose(centered[i], feats[i] - mean[vox[i]])
    print("ok")
