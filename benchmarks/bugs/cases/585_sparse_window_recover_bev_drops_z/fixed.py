import torch
import torch.nn as nn


class SparseWindowBackbone(nn.Module):
    """Voxel transformer stage followed by a dense BEV neck."""

    def __init__(self, feat_dim, sparse_shape):
        super().__init__()
        self.feat_dim = feat_dim
        self.sparse_shape = sparse_shape          # (nz, ny, nx)
        self.mlp = nn.Sequential(nn.Linear(feat_dim, feat_dim), nn.ReLU())

    def recover_bev(self, voxel_feat, coors, batch_size):
        """Scatter voxel features back onto a dense grid.

        Args:
            voxel_feat: shape=[N, C]
            coors: [N, 4], (batch_idx, z, y, x)
        Return:
            batch_canvas: shape=[B, C * nz, ny, nx]
        """
        nz, ny, nx = self.sparse_shape
        batch_canvas = []
        for batch_itt in range(batch_size):
            canvas = torch.zeros(self.feat_dim, nz * ny * nx, dtype=voxel_feat.dtype)
            batch_mask = coors[:, 0] == batch_itt
            this_coors = coors[batch_mask, :]
            indices = (this_coors[:, 1] * ny * nx + this_coors[:, 2] * nx + this_coors[:, 3]).long()
            voxels = voxel_feat[batch_mask, :].t()              # [C, n]
            canvas[:, indices] = voxels
            batch_canvas.append(canvas)
        batch_canvas = torch.stack(batch_canvas, 0)
        return batch_canvas.view(batch_size, -1, ny, nx)

    def forward(self, voxel_feat, coors, batch_size):
        return self.recover_bev(self.mlp(voxel_feat), coors, batch_size)


def make_voxels(batch_size, sparse_shape, per_sample, feat_dim, gen):
    nz, ny, nx = sparse_shape
    coors, feats = [], []
    for b in range(batch_size):
        flat = torch.randperm(nz * ny * nx, generator=gen)[:per_sample]
        z, y, x = flat // (ny * nx), (flat // nx) % ny, flat % nx
        coors.append(torch.stack([torch.full_like(z, b), z, y, x], 1))
        feats.append(torch.rand(per_sample, feat_dim, generator=gen))
    return torch.cat(feats), torch.cat(coors)


if __name__ == "__main__":
    gen = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    sparse_shape = (4, 8, 8)                          # a 3D window config: 4 z-layers
    net = SparseWindowBackbone(16, sparse_shape)
    feats, coors = make_voxels(2, sparse_shape, 60, 16, gen)
    with torch.no_grad():
        bev = net(feats, coors, 2)
        mapped = net.mlp(feats)
    nz, ny, nx = sparse_shape
    expected = torch.zeros(2, 16 * nz, ny, nx)
    for i in range(coors.shape[0]):
        b, z, y, x = [int(v) for v in coors[i]]
        for c in range(16):
            expected[b, c * nz + z, y, x] = mapped[i, c]
    assert torch.equal(bev, expected)
    print("ok")
