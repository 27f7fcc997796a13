import torch


def voxelize(points, origin, voxel_size, grid_shape):
    # points: [N, 3] metric xyz, origin: [3], grid_shape: (X, Y, Z)
    coords = torch.div(points - origin, voxel_size, rounding_mode="floor").long()  # [N, 3]
    upper = torch.tensor(grid_shape) - 1
    return torch.minimum(coords.clamp(min=0), upper)  # [N, 3]


def sample_voxel_features(feature_grid, coords):
    # feature_grid: [X, Y, Z, C] dense voxel features
    # coords: [N, 3] integer (x, y, z) voxel coordinates
    # returns: [N, C] features of the voxel each point falls into
    return feature_grid[coords]


if __name__ == "__main__":
    torch.manual_seed(0)
    grid_shape = (8, 12, 10)  # X, Y, Z
    feature_grid = torch.randn(*grid_shape, 6)  # [8, 12, 10, 6]
    origin = torch.tensor([-4.0, -6.0, -1.0])
    points = origin + torch.rand(500, 3) * torch.tensor([8.0, 12.0, 10.0])  # [500, 3]
    coords = voxelize(points, origin, 1.0, grid_shape)  # [500, 3]

    feats = sample_voxel_features(feature_grid, coords)  # [500, 6]

    ref = torch.empty(points.shape[0], feature_grid.shape[-1])
    for n in range(points.shape[0]):
        x, y, z = coords[n].tolist()
        ref[n] = feature_grid[x, y, z]
    print("feature shape:", tuple(feats.shape))
    print("max |feats - reference|:", (feats - ref).abs().max().item())
