import torch
import torch.nn as nn


class Voxelization(nn.Module):
    def __init__(self, resolution, normalize=True, eps=0):
        super().__init__()
        self.r = int(resolution)
        self.normalize = normalize
        self.eps = eps

    def forward(self, features, coords):
        coords = coords.detach()
        norm_coords = coords - coords.mean(2, keepdim=True)
        if self.normalize:
            norm_coords = norm_coords / (norm_coords.norm(dim=1, keepdim=True).max(dim=2, keepdim=True).values * 2.0 + self.eps) + 0.5
        else:
            norm_coords = (norm_coords + 1) / 2.0
        norm_coords = torch.clamp(norm_coords * self.r, 0, self.r - 1)
        vox_coords = torch.round(norm_coords).long()
        return avg_voxelize(features, vox_coords, self.r), norm_coords


def avg_voxelize(features, vox_coords, r):
    b, c, n = features.shape
    flat = vox_coords[:, 0] * r * r + vox_coords[:, 1] * r + vox_coords[:, 2]
    out = features.new_zeros(b, c, r ** 3)
    out.scatter_(2, flat.unsqueeze(1).expand(-1, c, -1), features)
    cnt = features.new_zeros(b, 1, r ** 3).scatter_add_(2, flat.unsqueeze(1), features.new_ones(b, 1, n))
    out = out / cnt.clamp(min=1)
    return out.view(b, c, r, r, r)


if __name__ == "__main__":
    torch.manual_seed(0)
    voxelize = Voxelization(resolution=4)
    feats = torch.randn(2, 5, 64)
    coords = torch.rand(2, 3, 64)
    grid, nc = voxelize(feats, coords)
    vc = torch.round(nc).long()[0]
    flat = vc[0] * 16 + vc[1] * 4 + vc[2]
    busiest = int(torch.bincount(flat).argmax())
    members = flat == busiest
    x, y, z = busiest // 16, (busiest // 4) % 4, busiest % 4
    print("points in voxel:", int(members.sum()))
    print("voxel value:", [round(v, 4) for v in grid[0, :, x, y, z].tolist()])
    print("point mean :", [round(v, 4) for v in feats[0][:, members].mean(1).tolist()])
