import torch
import torch.nn as nn


def group_points(points, voxel_ids, num_voxels, max_points):
    slot = torch.zeros_like(voxel_ids)
    counts = torch.zeros(num_voxels, dtype=torch.long)
    for i, v in enumerate(voxel_ids.tolist()):
        slot[i] = counts[v]
        counts[v] += 1
    keep = slot < max_points
    buf = points.new_zeros(num_voxels, max_points, points.size(1))
    buf[voxel_ids[keep], slot[keep]] = points[keep]
    mask = torch.arange(max_points).unsqueeze(0) < counts.clamp(max=max_points).unsqueeze(1)
    return buf, mask


class VoxelFeatureEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.point_net = nn.Linear(cfg["point_dim"], cfg["feat_dim"])

    def forward(self, voxels, mask):
        feats = self.point_net(voxels) * mask.unsqueeze(-1)
        return feats.max(dim=1).values


def run(cfg, seed=0):
    g = torch.Generator().manual_seed(seed)
    points = torch.randn(cfg["num_points"], cfg["point_dim"], generator=g)
    voxel_ids = torch.randint(0, cfg["num_voxels"], (cfg["num_points"],), generator=g)
    voxels, mask = group_points(points, voxel_ids, cfg["num_voxels"], cfg["max_points"])
    torch.manual_seed(seed)
    vfe = VoxelFeatureEncoder(cfg)
    return vfe, points, voxel_ids, vfe(voxels, mask)


if __name__ == "__main__":
    cfg = {"point_dim": 4, "feat_dim": 6, "num_voxels": 5, "max_points": 8, "num_points": 14}
    vfe, points, voxel_ids, out = run(cfg)
    print("voxel features:", out)
    print("fraction of exact zeros:", (out == 0).float().mean().item())
