import torch


def pillar_ids(xy, grid, cell):
    # xy: [P, 2] point coordinates in metres -> [P] flat pillar index
    ij = (xy / cell).floor().long().clamp(0, grid - 1)
    return ij[:, 0] * grid + ij[:, 1]


def mean_pool_pillars(feats, ids, num_pillars):
    # feats: [P, C], ids: [P] -> pooled: [num_pillars, C]
    C = feats.size(1)
    summed = feats.new_zeros(num_pillars, C)                        # [G*G, C]
    summed.scatter_add_(0, ids.unsqueeze(1).expand(-1, C), feats)       # [G*G, C]
    counts = torch.bincount(ids, minlength=num_pillars).clamp_min(1)  # [G*G]
    return summed / counts.unsqueeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    grid, cell = 4, 1.0
    xy = torch.rand(40, 2) * grid           # [40, 2]
    feats = torch.randn(40, 3)              # [40, 3]
    ids = pillar_ids(xy, grid, cell)
    pooled = mean_pool_pillars(feats, ids, grid * grid)
    for g in range(grid * grid):
        members = [p for p in range(40) if ids[p].item() == g]
        for c in range(3):
            ref = sum(feats[p, c].item() for p in members) / max(len(members), 1)
            assert abs(pooled[g, c].item() - ref) < 1e-5
    print("ok")
