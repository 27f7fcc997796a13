import torch
import torch.nn as nn


class BEVSplat(nn.Module):
    """Sum-pools lifted camera-frustum features into a bird's-eye-view grid."""

    def __init__(self, grid_conf):
        super().__init__()
        self.dx = torch.tensor([row[2] for row in grid_conf])                 # [3] cell size
        self.bx = torch.tensor([row[0] + row[2] / 2.0 for row in grid_conf])  # [3] first cell center
        self.nx = torch.tensor([round((row[1] - row[0]) / row[2]) for row in grid_conf])  # [3] cells per axis

    def voxel_pooling(self, geom, x):
        # geom: [B, N, 3] ego-frame xyz of every lifted point
        # x:    [B, N, C] features of every lifted point
        B, N, C = x.shape
        x = x.reshape(B * N, C)                                             # [B*N, C]
        geom_feats = ((geom - (self.bx - self.dx / 2.0)) / self.dx).long()  # [B, N, 3] voxel coords
        geom_feats = geom_feats.reshape(B * N, 3)
        batch_ix = torch.arange(B).repeat_interleave(N).unsqueeze(1)         # [B*N, 1]
        geom_feats = torch.cat((geom_feats, batch_ix), 1)                    # [B*N, 4]

        kept = ((geom_feats[:, 0] >= 0) & (geom_feats[:, 0] < self.nx[0])
                & (geom_feats[:, 1] >= 0) & (geom_feats[:, 1] < self.nx[1])
                & (geom_feats[:, 2] >= 0) & (geom_feats[:, 2] < self.nx[2]))
        x, geom_feats = x[kept], geom_feats[kept]

        final = torch.zeros((B, C, int(self.nx[2]), int(self.nx[0]), int(self.nx[1])))  # [B, C, Z, X, Y]
        final[geom_feats[:, 3], :, geom_feats[:, 2], geom_feats[:, 0], geom_feats[:, 1]] = x
        return torch.cat(final.unbind(dim=2), 1)                             # [B, C*Z, X, Y]


if __name__ == "__main__":
    torch.manual_seed(0)
    splat = BEVSplat([[-4.0, 4.0, 1.0], [-4.0, 4.0, 1.0], [-1.0, 1.0, 2.0]])
    geom = torch.rand(2, 300, 3) * torch.tensor([8.0, 8.0, 2.0]) - torch.tensor([4.0, 4.0, 1.0])  # [2, 300, 3]
    feats = torch.ones(2, 300, 4)                                                                # [2, 300, 4]
    bev = splat.voxel_pooling(geom, feats)
    print("bev:", tuple(bev.shape), "pooled mass:", bev.sum().item(), "points:", 2 * 300 * 4)
