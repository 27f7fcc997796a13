import torch
import torch.nn as nn


def knn(query, points, k):
    # query: [B, 3, M], points: [B, 3, N]
    dist = torch.cdist(query.transpose(1, 2), points.transpose(1, 2))  # [B, M, N]
    return dist.topk(k, dim=-1, largest=False).indices  # [B, M, k]


def group_features(features, idx):
    # features: [B, C, N]
    # idx:      [B, M, k], neighbour ids into N
    B, C, N = features.shape
    _, M, k = idx.shape
    flat_idx = idx.reshape(B, 1, M * k).expand(-1, C, -1)  # [B, C, M*k]
    grouped = torch.gather(features, 2, flat_idx)  # [B, C, M*k]
    return grouped.view(B, -1, M, k)  # [B, C, M, k]


class EdgeConv(nn.Module):
    def __init__(self, in_channels, out_channels, k):
        super().__init__()
        self.k = k
        self.mlp = nn.Sequential(nn.Conv2d(2 * in_channels, out_channels, 1), nn.ReLU())

    def forward(self, xyz, feats):
        # xyz: [B, 3, N], feats: [B, C, N]
        idx = knn(xyz, xyz, self.k)  # [B, N, k]
        neighbours = group_features(feats, idx)  # [B, C, N, k]
        center = feats.unsqueeze(-1).expand(-1, -1, -1, self.k)  # [B, C, N, k]
        edge = torch.cat([neighbours - center, center], dim=1)  # [B, 2C, N, k]
        return self.mlp(edge).max(dim=-1).values  # [B, out_channels, N]


if __name__ == "__main__":
    torch.manual_seed(0)
    xyz = torch.rand(2, 3, 64)
    feats = torch.randn(2, 6, 64)
    conv = EdgeConv(in_channels=6, out_channels=16, k=8)
    out = conv(xyz, feats)
    idx = knn(xyz, xyz, 8)
    grouped = group_features(feats, idx)
    ref = torch.stack([feats[b][:, idx[b]] for b in range(2)])  # [B, C, N, k]
    assert grouped.shape == ref.shape and torch.equal(grouped, ref)
    assert out.shape == (2, 16, 64)
    print("ok")
