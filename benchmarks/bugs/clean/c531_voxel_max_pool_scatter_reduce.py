"""Point-voxel feature fusion: max-pool point features into voxels, then gather them back per point."""
import torch
import torch.nn as nn


class PointVoxelFusion(nn.Module):
    def __init__(self, in_dim, out_dim, voxel_size):
        super().__init__()
        self.voxel_size = voxel_size
        self.mlp = nn.Linear(in_dim, out_dim)

    def voxelize(self, xyz):
        # xyz: [N, 3] -> voxel id per point [N] and number of occupied voxels
        coords = torch.div(xyz, self.voxel_size, rounding_mode="floor").long()
        coords = coords - coords.min(0).values
        _, voxel_id = torch.unique(coords, dim=0, return_inverse=True)
        return voxel_id, int(voxel_id.max()) + 1

    def forward(self, xyz, feats):
        h = self.mlp(feats)                                            # [N, C] (may be negative)
        voxel_id, num_voxels = self.voxelize(xyz)
        index = voxel_id.unsqueeze(1).expand(-1, h.size(1))           # [N, C]
        pooled = h.new_full((num_voxels, h.size(1)), float("-inf"))
        pooled = pooled.scatter_reduce(0, index, h, reduce="amax", include_self=False)
        back = pooled.gather(0, index)                                 # [N, C]
        return torch.cat([h, back], dim=1), pooled, voxel_id


if __name__ == "__main__":
    torch.manual_seed(0)
    model = PointVoxelFusion(in_dim=4, out_dim=6, voxel_size=0.5)
    xyz = torch.rand(200, 3) * 2.0
    feats = torch.randn(200, 4)
    with torch.no_grad():
        fused, pooled, voxel_id = model(xyz, feats)

        h = model.mlp(feats)
        ref = {}
        for i in range(h.size(0)):
            v = int(voxel_id[i])
            ref[v] = h[i].clone() if v not in ref else torch.maximum(ref[v], h[i])
    for v, row in ref.items():
        assert torch.allclose(pooled[v], row)
    for i in range(h.size(0)):
        assert torch.allclose(fused[i, 6:], ref[int(voxel_id[i])])
    print("ok")
