import torch


def voxel_ids(coords, resolution):
    grid = torch.clamp((coords * resolution).floor().long(), 0, resolution - 1)
    return grid[:, 0] * resolution * resolution + grid[:, 1] * resolution + grid[:, 2]


def voxelize(features, coords, resolution):
    batch, channels, _ = features.shape
    cells = resolution ** 3
    out = features.new_zeros(batch, channels, cells)
    counts = features.new_zeros(batch, 1, cells)
    for b in range(batch):
        vid = voxel_ids(coords[b].t(), resolution)
        index = vid.unsqueeze(0).expand(channels, -1)
        out[b].scatter_add_(1, index, features[b])
        counts[b].scatter_add_(1, vid.unsqueeze(0), torch.ones_like(vid, dtype=features.dtype).unsqueeze(0))
    return out / counts.clamp(min=1)


def make_inputs(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    feats = torch.randn(cfg["batch"], cfg["channels"], cfg["points"], generator=g)
    xyz = torch.rand(cfg["batch"], 3, cfg["points"], generator=g)
    return feats, xyz


if __name__ == "__main__":
    cfg = {"seed": 0, "batch": 2, "channels": 3, "points": 40, "resolution": 2}
    feats, xyz = make_inputs(cfg)
    grid = voxelize(feats, xyz, cfg["resolution"])
    R = cfg["resolution"]
    for b in range(cfg["batch"]):
        vid = voxel_ids(xyz[b].t(), R)
        for v in range(R ** 3):
            members = [p for p in range(cfg["points"]) if int(vid[p]) == v]
            if not members:
                assert torch.all(grid[b, :, v] == 0)
                continue
            ref = sum(feats[b, :, p] for p in members) / len(members)
            assert torch.allclose(grid[b, :, v], ref, atol=1e-6)
    print("ok")
