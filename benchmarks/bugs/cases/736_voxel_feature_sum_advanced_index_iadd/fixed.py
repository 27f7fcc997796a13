import torch


def voxelize(points, voxel_size, grid):
    coords = torch.floor(points / voxel_size).long().clamp_(0, grid - 1)
    return (coords[:, 0] * grid + coords[:, 1]) * grid + coords[:, 2]


def pool_to_voxels(feats, voxel_ids, n_voxels):
    summed = feats.new_zeros(n_voxels, feats.size(1))
    counts = feats.new_zeros(n_voxels)
    summed.index_add_(0, voxel_ids, feats)
    counts.index_add_(0, voxel_ids, torch.ones_like(voxel_ids, dtype=feats.dtype))
    return summed / counts.clamp(min=1).unsqueeze(1)


def run(points, feats, voxel_size=0.5, grid=4):
    ids = voxelize(points, voxel_size, grid)
    return ids, pool_to_voxels(feats, ids, grid ** 3)


if __name__ == "__main__":
    torch.manual_seed(0)
    points = torch.rand(64, 3) * 2.0
    feats = torch.randn(64, 16)
    ids, pooled = run(points, feats)
    for v in range(4 ** 3):
        rows = [i for i in range(ids.numel()) if int(ids[i]) == v]
        if not rows:
            assert torch.all(pooled[v] == 0)
            continue
        ref = sum(feats[i] for i in rows) / len(rows)
        assert torch.allclose(pooled[v], ref, atol=1e-5)
    print("ok")
