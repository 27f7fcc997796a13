import torch

GRID = dict(x_min=-4.0, x_max=4.0, y_min=-4.0, y_max=4.0, z_min=-2.0, z_max=2.0, cell=1.0, size=8)


def remove_out_of_bounds_points(pc, g):
    # pc: (N, 3 + F) -> keep the points inside the grid range
    mask = (pc[:, 0] >= g["x_min"]) & (pc[:, 0] <= g["x_max"]) \
        & (pc[:, 1] >= g["y_min"]) & (pc[:, 1] <= g["y_max"]) \
        & (pc[:, 2] >= g["z_min"]) & (pc[:, 2] <= g["z_max"])
    return pc[mask]


def pillar_indices(pc, g):
    # (N, 3 + F) -> (N,) flat pillar id in [0, size * size)
    xi = ((pc[:, 0] - g["x_min"]) / g["cell"]).long()
    yi = ((pc[:, 1] - g["y_min"]) / g["cell"]).long()
    return xi * g["size"] + yi


def scatter_to_pillars(point_feats, pillar_idx, num_pillars):
    # point_feats: (N, C), pillar_idx: (N,) -> pillar sums (P, C) and counts (P,)
    C = point_feats.size(1)
    sums = point_feats.new_zeros(num_pillars, C)
    sums.scatter_add_(0, pillar_idx[:, None].expand(-1, C), point_feats)
    counts = torch.bincount(pillar_idx, minlength=num_pillars)
    return sums, counts


def pillar_pseudo_image(pc, g):
    pc = remove_out_of_bounds_points(pc, g)
    idx = pillar_indices(pc, g)
    feats = pc[:, 2:]  # z + laser features, (N, 2)
    sums, counts = scatter_to_pillars(feats, idx, g["size"] * g["size"])
    mean = sums / counts.clamp(min=1)[:, None]
    # (P, C) -> (C, size, size)
    return mean.t().reshape(-1, g["size"], g["size"]), counts.reshape(g["size"], g["size"])


if __name__ == "__main__":
    torch.manual_seed(0)
    pc = torch.cat([torch.rand(200, 3) * torch.tensor([8.0, 8.0, 4.0]) - torch.tensor([4.0, 4.0, 2.0]),
                    torch.rand(200, 1)], dim=1)
    pc[0, :3] = torch.tensor([0.3, 4.0, 0.5])  # a return exactly on the y_max border
    image, counts = pillar_pseudo_image(pc, GRID)
    print("points kept:", int(counts.sum()), "of", pc.size(0))
    print("pillar (5, 0) holds", int(counts[5, 0]), "points; inside that cell:",
          int(((pc[:, 0] >= 1.0) & (pc[:, 0] < 2.0) & (pc[:, 1] >= -4.0) & (pc[:, 1] < -3.0)).sum()))
