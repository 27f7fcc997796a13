import torch
import torch.nn as nn


def square_distance(src, dst):
    """Squared Euclidean distance between every pair of points.

    Args:
        src: source points, [B, N, 3]
        dst: target points, [B, M, 3]
    Returns:
        dist: per-pair squared distance, [B, N, M]
    """
    return ((src[:, :, None, :] - dst[:, None, :, :]) ** 2).sum(-1)


def get_graph_feature(coords, feats, k=4):
    """kNN on coordinates, then concatenate each point's feature with its neighbours' features.

    Args:
        coords: [B, 3, N] point coordinates
        feats:  [B, C, N] point features
        k:      number of neighbours
    Returns:
        edge features, [B, 2C, N, k]
    """
    B, C, N = feats.shape
    dist = square_distance(coords.transpose(1, 2), coords.transpose(1, 2))
    idx = dist.topk(k=k + 1, dim=-1, largest=False)[1][:, :, 1:]
    idx = idx.unsqueeze(1).repeat(1, C, 1, 1)
    all_feats = feats.unsqueeze(-1).repeat(1, 1, 1, N)
    neighbor_feats = torch.gather(all_feats, dim=-1, index=idx)
    center = feats.unsqueeze(-1).repeat(1, 1, 1, k)
    return torch.cat([center, neighbor_feats - center], dim=1)


class SelfAttentionGNN(nn.Module):
    """One edge-conv layer: MLP over edge features, max over neighbours.

    Args:
        feature_dim: C
        k: neighbours per point
    """

    def __init__(self, feature_dim, k=4):
        super().__init__()
        self.k = k
        self.edge_mlp = nn.Sequential(nn.Conv2d(2 * feature_dim, feature_dim, 1), nn.ReLU())

    def forward(self, coords, feats):
        """coords: [B, 3, N], feats: [B, C, N] -> [B, C, N]"""
        return self.edge_mlp(get_graph_feature(coords, feats, self.k)).max(dim=-1)[0]


if __name__ == "__main__":
    torch.manual_seed(0)
    coords, feats = torch.randn(2, 3, 16), torch.randn(2, 8, 16)
    edge = get_graph_feature(coords, feats, k=4)
    pts = coords.transpose(1, 2)
    nbr = ((pts[:, :, None] - pts[:, None]) ** 2).sum(-1).topk(5, dim=-1, largest=False)[1][:, :, 1:]
    ref = torch.stack([torch.stack([feats[b][:, nbr[b, n]] for n in range(16)], dim=1) for b in range(2)])
    got = edge[:, 8:] + edge[:, :8]
    print("neighbour features match the kNN points:", torch.allclose(got, ref))
    print("max |diff|:", (got - ref).abs().max().item())
    print("layer output:", SelfAttentionGNN(8)(coords, feats).shape)
