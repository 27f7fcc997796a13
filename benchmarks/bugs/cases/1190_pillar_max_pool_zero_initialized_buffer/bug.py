import torch
import torch.nn as nn


class PillarFeatureNet(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.linear = nn.Linear(in_dim, out_dim)
        self.norm = nn.BatchNorm1d(out_dim)

    def forward(self, points, pillar_ids, num_pillars):
        feats = self.norm(self.linear(points))
        index = pillar_ids.unsqueeze(1).expand_as(feats)
        pooled = feats.new_zeros(num_pillars, feats.shape[1])
        pooled = pooled.scatter_reduce(0, index, feats, reduce="amax")
        return pooled


def assign_pillars(xy, grid=2.0, cells_per_row=4):
    cell = torch.div(xy, grid, rounding_mode="floor").long()
    return cell[:, 0] * cells_per_row + cell[:, 1]


if __name__ == "__main__":
    torch.manual_seed(0)
    points = torch.randn(12, 4)
    points[:, :2] = torch.rand(12, 2) * 8.0
    pillar_ids = assign_pillars(points[:, :2])
    net = PillarFeatureNet(4, 6).eval()
    with torch.no_grad():
        pooled = net(points, pillar_ids, 16)
    occupied = torch.unique(pillar_ids)
    print("occupied pillars:", occupied.tolist())
    print("zero entries in occupied pillars:", (pooled[occupied] == 0).sum().item())
    print(pooled[occupied])
