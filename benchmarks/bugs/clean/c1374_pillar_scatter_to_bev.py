import torch
import torch.nn as nn


class PillarEncoder(nn.Module):
    def __init__(self, in_channels=4, out_channels=8):
        super().__init__()
        self.linear = nn.Linear(in_channels + 3, out_channels, bias=False)
        self.norm = nn.LayerNorm(out_channels)

    def forward(self, points, pillar_idx, num_pillars):
        # points: (P, 4)  pillar_idx: (P,) in [0, num_pillars)
        ones = torch.ones(points.size(0), dtype=points.dtype)
        counts = torch.zeros(num_pillars, dtype=points.dtype).index_add_(0, pillar_idx, ones)  # (N,)
        centers = torch.zeros(num_pillars, 3).index_add_(0, pillar_idx, points[:, :3])  # (N, 3)
        centers = centers / counts.clamp(min=1).unsqueeze(1)
        offsets = points[:, :3] - centers.index_select(0, pillar_idx)  # (P, 3)
        feats = self.norm(self.linear(torch.cat([points, offsets], dim=1)))  # (P, C)
        index = pillar_idx.unsqueeze(1).expand_as(feats)  # (P, C)
        pooled = torch.full((num_pillars, feats.size(1)), float("-inf"))
        pooled = pooled.scatter_reduce(0, index, feats, reduce="amax", include_self=False)  # (N, C)
        return pooled.masked_fill(counts.unsqueeze(1) == 0, 0.0)


def scatter_to_bev(pillar_feats, coords, grid_h, grid_w):
    # pillar_feats: (N, C)  coords: (N, 2) integer (row, col) of every pillar
    C = pillar_feats.size(1)
    canvas = torch.zeros(C, grid_h * grid_w, dtype=pillar_feats.dtype)  # (C, H*W)
    flat = coords[:, 0] * grid_w + coords[:, 1]  # (N,)
    canvas[:, flat] = pillar_feats.t()
    return canvas.view(C, grid_h, grid_w)  # (C, H, W)


if __name__ == "__main__":
    torch.manual_seed(0)
    num_pillars, H, W = 6, 5, 4
    pillar_idx = torch.cat([torch.arange(num_pillars - 1), torch.randint(0, num_pillars - 1, (25,))])
    points = torch.randn(pillar_idx.numel(), 4)
    enc = PillarEncoder()
    with torch.no_grad():
        pooled = enc(points, pillar_idx, num_pillars)
        centers = torch.stack([points[pillar_idx == p, :3].mean(0) for p in range(num_pillars - 1)])
        feats = enc.norm(enc.linear(torch.cat([points, points[:, :3] - centers[pillar_idx]], dim=1)))
    for p in range(num_pillars - 1):
        assert torch.allclose(pooled[p], feats[pillar_idx == p].max(0).values, atol=1e-6)
    assert torch.equal(pooled[num_pillars - 1], torch.zeros(8))

    perm = torch.randperm(H * W)[:num_pillars]
    coords = torch.stack([perm // W, perm % W], dim=1)
    bev = scatter_to_bev(pooled, coords, H, W)
    for p in range(num_pillars):
        assert torch.equal(bev[:, coords[p, 0], coords[p, 1]], pooled[p])
    assert int((bev.abs().sum(0) > 0).sum()) <= num_pillars
    print("ok")
