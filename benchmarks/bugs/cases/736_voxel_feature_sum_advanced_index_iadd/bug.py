import torch


def voxelize(points, voxel_size, grid):
    coords = torch.floor(points / voxel_size).long().clamp_(0, grid - 1)
    return (coords[:, 0] * grid + coords[:, 1]) * grid + coords[:, 2]


def pool_to_voxels(feats, voxel_ids, n_voxels):
    summed = feats.new_zeros(n_voxels, feats.size(1))
    counts = feats.new_zeros(n_voxels)
    summed[voxel_ids] += feats
    counts[voxel_ids] += 1
    return summed / counts.clamp(min=1).unsqueeze(1)


def run(points, feats, voxel_size=0.5, grid=4):
    ids = voxelize(points, voxel_size, grid)
    return ids, pool_to_voxels(feats, ids, grid ** 3)


if __name__ == "__main__":
    torch.manual_seed(0)
    points = torch.rand(64, 3) * 2.0
    feats = torch.randn(64, 16)
    ids, pooled = run(points, feats)
    first = int(ids[0])
    members = (ids == first).nonzero().flatten()
    print("points in voxel", first, ":", members.numel())
    print("pooled :", pooled[first, :4].tolist())
    print("mean   :", feats[members].mean(0)[:4].tolist())
