import torch
import torch.nn as nn


class PillarFeatureNet(nn.Module):
    """Encodes LiDAR points and averages them into bird's-eye-view pillars."""

    def __init__(self, in_channels, out_channels, grid_size, pillar_size):
        super().__init__()
        self.linear = nn.Linear(in_channels, out_channels)
        self.norm = nn.LayerNorm(out_channels)
        self.grid_size = grid_size
        self.pillar_size = pillar_size

    def pillar_ids(self, points):
        cell = torch.div(points[:, :2], self.pillar_size, rounding_mode="floor").long()
        cell = cell.clamp(0, self.grid_size - 1)
        return cell[:, 0] * self.grid_size + cell[:, 1]

    def encode(self, points):
        return torch.relu(self.norm(self.linear(points)))

    def forward(self, points):
        feats = self.encode(points)
        ids = self.pillar_ids(points)
        index = ids.unsqueeze(-1).expand_as(feats)
        canvas = feats.new_zeros(self.grid_size * self.grid_size, feats.size(-1))
        return canvas.scatter_reduce(0, index, feats, reduce="mean", include_self=False)


if __name__ == "__main__":
    torch.manual_seed(0)
    net = PillarFeatureNet(in_channels=4, out_channels=32, grid_size=4, pillar_size=2.0)
    points = torch.rand(300, 4) * torch.tensor([8.0, 8.0, 3.0, 1.0])
    pillars = net(points)
    feats, ids = net.encode(points), net.pillar_ids(points)
    ref = torch.zeros(16, 32)
    for p in range(16):
        if (ids == p).any():
            ref[p] = feats[ids == p].mean(0)
    assert torch.allclose(pillars, ref, atol=1e-5)
    print("ok")
