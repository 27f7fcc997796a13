import torch
import torch.nn as nn


class PillarFeatureNet(nn.Module):
    """PointPillars-style encoder: per-point MLP, then max over the points of each pillar."""

    def __init__(self, in_channels=4, out_channels=16):
        super().__init__()
        self.linear = nn.Linear(in_channels + 3, out_channels, bias=False)
        self.norm = nn.LayerNorm(out_channels)

    def forward(self, points, pillar_idx, num_pillars):
        # points: (P, 4) x, y, z, intensity   pillar_idx: (P,) pillar id of every point
        counts = torch.zeros(num_pillars).index_add_(0, pillar_idx, torch.ones(points.size(0)))
        xyz_sum = torch.zeros(num_pillars, 3).index_add_(0, pillar_idx, points[:, :3])
        centers = xyz_sum / counts.clamp(min=1).unsqueeze(1)  # (num_pillars, 3)
        offsets = points[:, :3] - centers[pillar_idx]  # (P, 3)
        feats = self.norm(self.linear(torch.cat([points, offsets], dim=1)))  # (P, C)
        index = pillar_idx.unsqueeze(1).expand(-1, feats.size(1))  # (P, C)
        pooled = torch.zeros(num_pillars, feats.size(1)).scatter_reduce(
            0, index, feats, reduce="amax", include_self=False
        )
        return pooled  # (num_pillars, C)


if __name__ == "__main__":
    torch.manual_seed(0)
    num_pillars = 12
    pillar_idx = torch.cat([torch.arange(num_pillars), torch.randint(0, num_pillars, (88,))])
    points = torch.randn(100, 4)
    net = PillarFeatureNet()
    with torch.no_grad():
        pooled = net(points, pillar_idx, num_pillars)
        counts = torch.bincount(pillar_idx, minlength=num_pillars).float()
        centers = torch.stack([points[pillar_idx == p, :3].mean(0) for p in range(num_pillars)])
        feats = net.norm(net.linear(torch.cat([points, points[:, :3] - centers[pillar_idx]], dim=1)))
        ref = torch.stack([feats[pillar_idx == p].max(0).values for p in range(num_pillars)])
    assert torch.allclose(pooled, ref, atol=1e-6)
    print("ok")
