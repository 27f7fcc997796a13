import torch

GRID = dict(x_min=-4.0, x_max=4.0, y_min=-4.0, y_max=4.0, z_min=-2.0, z_max=2.0, cell=1.0, size=8)


def remove_out_of_bounds_points(pc, g):
    # pc: (N, 3 + F) -> keep the points inside [min, max) on every axis; the last
    # cell on an axis covers [(size - 1) * cell + min, max)
    mask = (pc[:, 0] >= g["x_min"]) & (pc[:, 0] < g["x_max"]) \
        & (pc[:, 1] >= g["y_min"]) & (pc[:, 1] < g["y_max"]) \
        & (pc[:, 2] >= g["z_min"]) & (pc[:, 2] < g["z_max"])
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
    assert int(counts.sum()) == 199
    for cx in range(8):
        for cy in range(8):
            members = [p for p in pc.tolist()
                       if -4.0 + cx <= p[0] < -3.0 + cx and -4.0 + cy <= p[1] < -3.0 + cy and -2.0 <= p[2] < 2.0]
            assert counts[cx, cy] == len(members)
            if members:
                ref = torch.tensor(members)[:, 2:].mean(dim=0)
                assert torch.allclose(image[:, cx, cy], ref, atol=1e-5)
            else:
                assert torch.all(image[:, cx, cy] == 0)
    print("ok")
