import torch


def pillar_ids(points, cell_size, grid_w):
    # points: [N, 3] -> flat pillar id per point: [N] (int64 via floor division)
    ix = torch.div(points[:, 0], cell_size, rounding_mode="floor").long()
    iy = torch.div(points[:, 1], cell_size, rounding_mode="floor").long()
    return iy * grid_w + ix


def pillar_mean(point_feats, pid, num_pillars):
    # point_feats: [N, C], pid: [N] -> mean per pillar: [P, C] (empty pillars stay 0)
    index = pid.unsqueeze(-1).expand_as(point_feats)                  # [N, C]
    out = point_feats.new_zeros(num_pillars, point_feats.size(1))
    out.scatter_reduce_(0, index, point_feats, reduce="mean", include_self=False)
    counts = torch.zeros(num_pillars, dtype=torch.long).index_add_(0, pid, torch.ones_like(pid))
    return out, counts


def decorate_points(point_feats, pid, pillar_feats):
    # concatenate every point with the mean of its pillar: [N, 2C]
    return torch.cat([point_feats, pillar_feats.index_select(0, pid)], dim=-1)


def occupancy_one_hot(pid, num_pillars):
    # [N] -> [N, P] one-hot rows via scatter_ with a scalar value
    return torch.zeros(pid.numel(), num_pillars).scatter_(1, pid.unsqueeze(1), 1.0)


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    grid_w, grid_h, cell = 3, 3, 1.0
    pts = torch.rand(25, 3, generator=g) * torch.tensor([3.0, 3.0, 1.0])
    feats = torch.randn(25, 4, generator=g)
    pid = pillar_ids(pts, cell, grid_w)
    means, counts = pillar_mean(feats, pid, grid_w * grid_h)
    dec = decorate_points(feats, pid, means)
    onehot = occupancy_one_hot(pid, grid_w * grid_h)

    groups = {}
    for i, p in enumerate(pts.tolist()):
        key = int(p[1] // cell) * grid_w + int(p[0] // cell)
        assert key == pid[i].item()
        groups.setdefault(key, []).append(i)
    for pillar in range(grid_w * grid_h):
        members = groups.get(pillar, [])
        assert counts[pillar].item() == len(members)
        for c in range(4):
            ref = sum(feats[i, c].item() for i in members) / len(members) if members else 0.0
            assert abs(means[pillar, c].item() - ref) < 1e-5
    for i in range(25):
        assert torch.allclose(dec[i, 4:], means[pid[i]])
        assert onehot[i].sum().item() == 1.0 and onehot[i, pid[i]].item() == 1.0
    print("ok")
