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
    pooled.index_add_(0, point_to_voxel, feats)
    counts = torch.bincount(point_to_voxel, minlength=num_voxels).clamp(min=1)
    return pooled / counts.unsqueeze(1).to(feats.dtype)


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
    for v in range(keys.numel()):
        members = [i for i in range(points.size(0)) if int(inv[i]) == v]
        ref = sum(feats[i] for i in members) / len(members)
        assert torch.allclose(voxels[v], ref, atol=1e-6)
    print("ok")
