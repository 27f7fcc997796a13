import torch


def pillar_ids(xy, grid, cell):
    # xy: [P, 2] point coordinates in metres -> [P] flat pillar index
    ij = (xy / cell).floor().long().clamp(0, grid - 1)
    return ij[:, 0] * grid + ij[:, 1]


def mean_pool_pillars(feats, ids, num_pillars):
    # feats: [P, C], ids: [P] -> pooled: [num_pillars, C]
    C = feats.size(1)
    summed = feats.new_zeros(num_pillars, C)                        # [G*G, C]
    summed.scatter_(0, ids.unsqueeze(1).expand(-1, C), feats)       # [G*G, C]
    counts = torch.bincount(ids, minlength=num_pillars).clamp_min(1)  # [G*G]
    return summed / counts.unsqueeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    grid, cell = 4, 1.0
    xy = torch.rand(40, 2) * grid           # [40, 2]
    feats = torch.randn(40, 3)              # [40, 3]
    ids = pillar_ids(xy, grid, cell)
    pooled = mean_pool_pillars(feats, ids, grid * grid)
    busiest = torch.bincount(ids).argmax().item()
    print("points in busiest pillar:", (ids == busiest).sum().item())
    print("pooled:", pooled[busiest].tolist())
    print("mean  :", feats[ids == busiest].mean(0).tolist())
