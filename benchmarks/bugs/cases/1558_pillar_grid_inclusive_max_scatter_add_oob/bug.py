import torch
import torch.nn as nn

GRID = {
    "x_min": -8.0, "x_max": 8.0,
    "y_min": -8.0, "y_max": 8.0,
    "z_min": -2.0, "z_max": 2.0,
    "n_pillars_x": 16, "n_pillars_y": 16,
}


def remove_out_of_bounds_points(pc, g):
    # pc: (N, 3 + F) raw sweep, columns x, y, z, intensity
    mask = (pc[:, 0] >= g["x_min"]) & (pc[:, 0] <= g["x_max"]) \
        & (pc[:, 1] >= g["y_min"]) & (pc[:, 1] <= g["y_max"]) \
        & (pc[:, 2] >= g["z_min"]) & (pc[:, 2] <= g["z_max"])
    return pc[mask]


def grid_cell_indices(pc, g):
    # pc: (N, 3 + F) -> (N,) flat pillar id  x_idx * n_pillars_y + y_idx
    cell_size = (g["x_max"] - g["x_min"]) / g["n_pillars_x"]
    x_idx = ((pc[:, 0] - g["x_min"]) / cell_size).long()
    y_idx = ((pc[:, 1] - g["y_min"]) / cell_size).long()
    return x_idx * g["n_pillars_y"] + y_idx


def collate(clouds, g):
    # pad a list of (N_i, 4) clouds to (B, N_max, 4) plus (B, N_max) flat indices
    valid = [remove_out_of_bounds_points(pc, g) for pc in clouds]
    n_max = max(v.shape[0] for v in valid)
    points = torch.zeros(len(valid), n_max, valid[0].shape[1])
    indices = torch.zeros(len(valid), n_max, dtype=torch.long)
    for b, v in enumerate(valid):
        points[b, : v.shape[0]] = v
        indices[b, : v.shape[0]] = grid_cell_indices(v, g)
    return points, indices


class PointEmbedding(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, points):
        # points: (B, N, 4) -> (B, N, C); padded rows are all-zero and stay zero
        valid = points.abs().sum(-1, keepdim=True) > 0
        return torch.relu(self.lin(points)) * valid


class PillarScatter(nn.Module):
    def __init__(self, n_pillars_x, n_pillars_y):
        super().__init__()
        self.n_pillars_x = n_pillars_x
        self.n_pillars_y = n_pillars_y

    def forward(self, x, indices):
        # x: (B, N, C) point embeddings, indices: (B, N) flat pillar ids
        grid = x.new_zeros(x.size(0), self.n_pillars_x * self.n_pillars_y, x.size(2))  # (B, X*Y, C)
        grid.scatter_add_(1, indices.unsqueeze(-1).expand(-1, -1, x.size(2)), x)
        grid = grid.permute(0, 2, 1)  # (B, C, X*Y)
        return grid.unflatten(2, (self.n_pillars_x, self.n_pillars_y))  # (B, C, X, Y)


if __name__ == "__main__":
    torch.manual_seed(0)
    sweep_a = torch.cat([torch.rand(300, 3) * torch.tensor([20.0, 20.0, 5.0]) - torch.tensor([10.0, 10.0, 2.5]),
                         torch.rand(300, 1)], dim=1)
    sweep_b = torch.cat([torch.rand(250, 3) * torch.tensor([20.0, 20.0, 5.0]) - torch.tensor([10.0, 10.0, 2.5]),
                         torch.rand(250, 1)], dim=1)
    # returns that land exactly on the far edge of the crop (e.g. a wall at x = 8 m)
    edge = torch.tensor([[8.0, 1.5, 0.2, 0.7], [8.0, -3.0, 0.4, 0.3]])
    sweep_b = torch.cat([sweep_b, edge], dim=0)

    points, indices = collate([sweep_a, sweep_b], GRID)
    embed = PointEmbedding(4, 8)
    scatter = PillarScatter(GRID["n_pillars_x"], GRID["n_pillars_y"])
    with torch.no_grad():
        pseudo_image = scatter(embed(points), indices)
    print("pseudo image:", tuple(pseudo_image.shape))
