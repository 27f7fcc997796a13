import torch

CFG = {"voxel_size": 0.5, "grid": 8, "in_channels": 4, "num_points": 40, "extent": 4.0}


def quantize(points, cfg):
    coords = torch.floor(points / cfg["voxel_size"]).long().clamp(0, cfg["grid"] - 1)
    g = cfg["grid"]
    keys = (coords[:, 0] * g + coords[:, 1]) * g + coords[:, 2]
    voxel_keys, point_to_voxel = torch.unique(keys, return_inverse=True)
    return voxel_keys, point_to_voxel


def voxel_mean_pool(feats, point_to_voxel, num_voxels):
    pooled = feats.new_zeros(num_voxels, feats.size(1))
    pooled[point_to_voxel] = feats
    return pooled


class VoxelFeatureEncoder(torch.nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg

    def forward(self, points, feats):
        voxel_keys, point_to_voxel = quantize(points, self.cfg)
        return voxel_keys, voxel_mean_pool(feats, point_to_voxel, voxel_keys.numel())


def make_scene(cfg, seed=0):
    gen = torch.Generator().manual_seed(seed)
    pts = torch.rand(cfg["num_points"], 3, generator=gen) * cfg["extent"] / 4
    fts = torch.randn(cfg["num_points"], cfg["in_channels"], generator=gen)
    return pts, fts


if __name__ == "__main__":
    points, feats = make_scene(CFG)
    keys, voxels = VoxelFeatureEncoder(CFG)(points, feats)
    _, inv = quantize(points, CFG)
    counts = torch.bincount(inv)
    v = int(counts.argmax())
    print("points in busiest voxel:", int(counts[v]))
    print("pooled feature:", voxels[v])
    print("mean of its points:", feats[inv == v].mean(0))
