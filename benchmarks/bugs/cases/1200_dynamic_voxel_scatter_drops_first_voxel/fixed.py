import torch


def points_to_voxel_coors(points, cfg):
    lo = torch.tensor(cfg["pc_range"][:3])
    hi = torch.tensor(cfg["pc_range"][3:])
    size = torch.tensor(cfg["voxel_size"])
    coors = torch.floor((points[:, :3] - lo) / size).long()
    outside = ((points[:, :3] < lo) | (points[:, :3] >= hi)).any(dim=1)
    coors[outside] = -1
    return coors


def dynamic_scatter_mean(feats, coors):
    voxel_coors, inverse = torch.unique(coors, dim=0, return_inverse=True)
    voxel_feats = torch.zeros(voxel_coors.size(0), feats.size(1), dtype=feats.dtype)
    index = inverse.unsqueeze(1).expand(-1, feats.size(1))
    voxel_feats.scatter_reduce_(0, index, feats, "mean", include_self=False)
    if (voxel_coors[0] < 0).any():
        voxel_feats = voxel_feats[1:]
        voxel_coors = voxel_coors[1:]
    return voxel_feats, voxel_coors


def voxelize(points, cfg):
    coors = points_to_voxel_coors(points, cfg)
    return dynamic_scatter_mean(points, coors)


if __name__ == "__main__":
    cfg = {"voxel_size": [1.0, 1.0, 2.0], "pc_range": [0.0, 0.0, -1.0, 4.0, 4.0, 1.0]}
    g = torch.Generator().manual_seed(0)
    pts = torch.rand(20, 4, generator=g) * torch.tensor([4.0, 4.0, 2.0, 1.0]) - torch.tensor([0.0, 0.0, 1.0, 0.0])
    pts_out = torch.cat([pts, torch.tensor([[9.0, 9.0, 0.0, 0.5]])])
    for cloud in (pts, pts_out):
        feats, coors = voxelize(cloud, cfg)
        pc = points_to_voxel_coors(cloud, cfg)
        groups = {}
        for i in range(cloud.size(0)):
            key = tuple(pc[i].tolist())
            if min(key) < 0:
                continue
            groups.setdefault(key, []).append(cloud[i])
        assert coors.size(0) == len(groups)
        for c, f in zip(coors.tolist(), feats):
            ref = torch.stack(groups[tuple(c)]).mean(0)
            assert torch.allclose(f, ref, atol=1e-6)
    print("ok")
