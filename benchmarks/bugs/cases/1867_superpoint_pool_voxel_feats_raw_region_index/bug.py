import torch
import torch.nn as nn
import torch.nn.functional as F


def voxelize(points, voxel_size):
    coords = torch.floor(points[:, :3] / voxel_size).long()
    uniq, inverse = torch.unique(coords, dim=0, return_inverse=True)
    counts = torch.bincount(inverse, minlength=uniq.size(0)).clamp(min=1).unsqueeze(1).float()
    voxel_points = torch.zeros(uniq.size(0), points.size(1)).index_add_(0, inverse, points) / counts
    return voxel_points, inverse


class VoxelEncoder(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_channels, 64), nn.ReLU(), nn.Linear(64, out_channels))

    def forward(self, voxel_points):
        return F.normalize(self.net(voxel_points), dim=1)


def region_mean(feats, region, num_regions):
    index = region.unsqueeze(1).expand(-1, feats.size(1))
    out = torch.zeros(num_regions, feats.size(1))
    return out.scatter_reduce(0, index, feats, reduce="mean", include_self=False)


def superpoint_features(encoder, points, raw_region, voxel_size):
    voxel_points, inverse = voxelize(points, voxel_size)
    feats = encoder(voxel_points)
    num_regions = int(raw_region.max()) + 1
    return region_mean(feats, raw_region, num_regions)


if __name__ == "__main__":
    torch.manual_seed(0)
    xyz = torch.rand(2000, 3) * 4.0
    rgb = torch.rand(2000, 3)
    points = torch.cat([xyz, rgb], dim=1)
    raw_region = (xyz[:, 0] // 1.0).long() * 4 + (xyz[:, 1] // 1.0).long()
    encoder = VoxelEncoder(6, 32)
    with torch.no_grad():
        region_feats = superpoint_features(encoder, points, raw_region, voxel_size=0.25)
    print(region_feats.shape)
