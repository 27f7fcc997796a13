import torch
import torch.nn as nn
from jaxtyping import Float, Int


class BEVPool(nn.Module):
    """Sum-pools lifted camera-frustum features into a bird's-eye-view grid."""

    def __init__(self, grid_hw=(16, 16), depth_bins=1):
        super().__init__()
        self.H, self.W = grid_hw
        self.D = depth_bins

    def forward(
        self,
        feats: Float[torch.Tensor, "n c"],
        coor: Int[torch.Tensor, "n 4"],
        batch_size: int,
    ) -> Float[torch.Tensor, "b c d h w"]:
        # coor columns: (x, y, z, batch)
        B, D, H, W = batch_size, self.D, self.H, self.W
        C = feats.shape[1]
        flat = coor[:, 3] * D * H * W + coor[:, 2] * H * W + coor[:, 1] * W + coor[:, 0]
        out = feats.new_zeros(B * D * H * W, C)
        out.index_put_((flat,), feats)
        return out.view(B, D, H, W, C).permute(0, 4, 1, 2, 3).contiguous()


def lift_frustum(batch_size, points_per_cam, channels, grid_hw, seed=0):
    g = torch.Generator().manual_seed(seed)
    n = batch_size * points_per_cam
    feats = torch.rand(n, channels, generator=g)
    xy = torch.randint(0, grid_hw[0], (n, 2), generator=g)
    z = torch.zeros(n, 1, dtype=torch.long)
    b = torch.arange(batch_size).repeat_interleave(points_per_cam).unsqueeze(1)
    return feats, torch.cat([xy, z, b], dim=1)


if __name__ == "__main__":
    feats, coor = lift_frustum(batch_size=2, points_per_cam=600, channels=4, grid_hw=(16, 16))
    bev = BEVPool((16, 16))(feats, coor, batch_size=2)
    print("sum of lifted features:", feats.sum().item())
    print("sum of BEV grid:       ", bev.sum().item())
