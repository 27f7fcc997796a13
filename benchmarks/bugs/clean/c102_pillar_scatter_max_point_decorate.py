import torch
import torch.nn as nn


class PillarEncoder(nn.Module):
    def __init__(self, in_channels, channels, grid_size, pillar_size):
        super().__init__()
        self.point_mlp = nn.Sequential(nn.Linear(in_channels, channels), nn.ReLU())
        self.fuse = nn.Linear(2 * channels, channels)
        self.grid_size = grid_size
        self.pillar_size = pillar_size

    def pillar_ids(self, points):
        # points: [N, 4] (x, y, z, intensity)
        cell = torch.div(points[:, :2], self.pillar_size, rounding_mode="floor").long()  # [N, 2]
        cell = cell.clamp(0, self.grid_size - 1)
        return cell[:, 0] * self.grid_size + cell[:, 1]  # [N]

    def forward(self, points):
        feats = self.point_mlp(points)  # [N, C]
        ids = self.pillar_ids(points)  # [N]
        index = ids.unsqueeze(-1).expand_as(feats)  # [N, C]
        pillars = feats.new_zeros(self.grid_size * self.grid_size, feats.size(1))  # [P, C]
        pillars = pillars.scatter_reduce(0, index, feats, reduce="amax", include_self=False)  # [P, C]
        context = pillars.gather(0, index)  # [N, C], pillar feature of each point's pillar
        decorated = self.fuse(torch.cat([feats, context], dim=1))  # [N, C]
        counts = torch.zeros(pillars.size(0)).index_add_(0, ids, torch.ones(ids.size(0)))  # [P]
        return pillars, decorated, counts


if __name__ == "__main__":
    torch.manual_seed(0)
    enc = PillarEncoder(in_channels=4, channels=16, grid_size=3, pillar_size=2.0)
    points = torch.rand(120, 4) * torch.tensor([6.0, 6.0, 2.0, 1.0])
    pillars, decorated, counts = enc(points)
    feats, ids = enc.point_mlp(points), enc.pillar_ids(points)
    for p in range(9):
        members = ids == p
        assert counts[p] == members.sum()
        expected = feats[members].amax(0) if members.any() else torch.zeros(16)
        assert torch.allclose(pillars[p], expected)
    ref = enc.fuse(torch.cat([feats, pillars[ids]], dim=1))
    assert torch.allclose(decorated, ref, atol=1e-6)
    print("ok")
