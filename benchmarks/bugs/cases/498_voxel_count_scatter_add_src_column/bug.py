import torch


def voxelize(points, voxel_size, grid):
    coords = (points[:, :3] / voxel_size).floor().long().clamp(0, grid - 1)
    return coords[:, 0] * grid * grid + coords[:, 1] * grid + coords[:, 2]


def voxel_mean(features, voxel_ids, num_voxels):
    channels = features.size(1)
    index = voxel_ids.unsqueeze(1).expand(-1, channels)
    sums = features.new_zeros(num_voxels, channels)
    sums.scatter_add_(0, index, features)
    counts = features.new_zeros(num_voxels, channels)
    counts.scatter_add_(0, index, torch.ones(features.size(0), 1))
    return sums / counts.clamp(min=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    points = torch.rand(50, 4) * 2.0
    feats = torch.randn(50, 6)
    ids = voxelize(points, voxel_size=1.0, grid=2)
    pooled = voxel_mean(feats, ids, num_voxels=8)
    print(pooled)
