import torch


def voxelize(coords, voxel_size):
    grid = torch.floor(coords / voxel_size).long()
    keys, inverse = torch.unique(grid, dim=0, return_inverse=True)
    return keys, inverse


class VoxelFeatureEncoder(torch.nn.Module):
    def __init__(self, in_ch, out_ch, voxel_size):
        super().__init__()
        self.proj = torch.nn.Linear(in_ch, out_ch)
        self.voxel_size = voxel_size

    def forward(self, coords, feats):
        keys, inverse = voxelize(coords, self.voxel_size)
        point_feats = self.proj(feats)
        num_vox = keys.shape[0]
        counts = torch.bincount(inverse, minlength=num_vox).clamp(min=1).unsqueeze(1)
        index = inverse.unsqueeze(1).expand_as(point_feats)
        summed = point_feats.new_zeros(num_vox, point_feats.shape[1]).scatter_add_(0, index, point_feats)
        return keys, summed / counts


if __name__ == "__main__":
    torch.manual_seed(0)
    coords = torch.rand(40, 3) * 2.0
    feats = torch.randn(40, 6)
    enc = VoxelFeatureEncoder(6, 8, voxel_size=1.0)
    keys, vox = enc(coords, feats)
    _, inverse = voxelize(coords, 1.0)
    with torch.no_grad():
        pf = enc.proj(feats)
        for k in range(keys.shape[0]):
            members = [i for i in range(40) if int(inverse[i]) == k]
            ref = sum(pf[i] for i in members) / len(members)
            assert torch.allclose(vox[k], ref, atol=1e-5)
    print("ok")
