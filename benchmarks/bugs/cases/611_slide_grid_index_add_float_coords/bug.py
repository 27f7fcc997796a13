import torch


def coords_to_grid_index(coords, patch_size_level0):
    """Map level-0 patch coordinates to cells of a dense feature grid.

    Args:
        coords: (N, 2) tensor of top-left (x, y) pixel coordinates of each patch.
        patch_size_level0: patch side length in level-0 pixels.

    Returns:
        flat_idx: (N,) cell index into a row-major (H * W) grid.
        grid_hw: (H, W) size of the grid.
    """
    origin = coords.min(dim=0).values
    cells = (coords - origin) / patch_size_level0
    width = int(cells[:, 0].max().item()) + 1
    height = int(cells[:, 1].max().item()) + 1
    flat_idx = cells[:, 1] * width + cells[:, 0]
    return flat_idx, (height, width)


def build_feature_grid(features, coords, patch_size_level0):
    """Scatter patch features into a dense grid for a 2-D slide encoder.

    Args:
        features: (N, D) patch embeddings.
        coords: (N, 2) patch coordinates at level 0.
        patch_size_level0: patch side length in level-0 pixels.

    Returns:
        grid: (D, H, W) feature grid, zeros where no tissue patch exists.
    """
    flat_idx, (height, width) = coords_to_grid_index(coords, patch_size_level0)
    grid = torch.zeros(height * width, features.shape[1], dtype=features.dtype)
    grid.index_add_(0, flat_idx, features)
    return grid.t().reshape(features.shape[1], height, width)


if __name__ == "__main__":
    torch.manual_seed(0)
    patch_size = 512
    xy = torch.tensor([[0, 0], [1, 0], [3, 0], [0, 1], [2, 2], [3, 2]])
    coords = (xy * patch_size + torch.tensor([1024, 2048])).float()
    feats = torch.randn(xy.shape[0], 8)
    grid = build_feature_grid(feats, coords, patch_size)
    print("grid", tuple(grid.shape))
