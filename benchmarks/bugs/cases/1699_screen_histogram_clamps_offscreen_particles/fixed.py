from bisect import bisect_left

import torch
from jaxtyping import Float
from torch import Tensor


def _bin_centers_to_edges(centers: Float[Tensor, "n_bins"]) -> Float[Tensor, "n_bins_plus_1"]:
    """Convert evenly spaced bin centers to bin edges."""
    step = centers[1] - centers[0]
    midpoints = (centers[1:] + centers[:-1]) / 2
    return torch.cat([(centers[0] - step / 2)[None], midpoints, (centers[-1] + step / 2)[None]])


def vectorized_histogram_2d(
    x1: Float[Tensor, "*batch n_particles"],
    x2: Float[Tensor, "*batch n_particles"],
    bins1: Float[Tensor, "n_bins1"],
    bins2: Float[Tensor, "n_bins2"],
    weights: Float[Tensor, "*batch n_particles"],
) -> Float[Tensor, "*batch n_bins1 n_bins2"]:
    """Batched 2D histograms of (x1, x2) on the given bin centers, one histogram per batch entry."""
    batch_shape, n = x1.shape[:-1], x1.shape[-1]
    x1_flat, x2_flat = x1.reshape(-1, n), x2.reshape(-1, n)
    B = x1_flat.shape[0]

    x1_edges, x2_edges = _bin_centers_to_edges(bins1), _bin_centers_to_edges(bins2)
    bins_x1, bins_x2 = x1_edges.numel() - 1, x2_edges.numel() - 1
    ix1 = (torch.bucketize(x1_flat, x1_edges) - 1).clamp(0, bins_x1 - 1)
    ix2 = (torch.bucketize(x2_flat, x2_edges) - 1).clamp(0, bins_x2 - 1)

    idx_flat = ix1 * bins_x2 + ix2
    offset = torch.arange(B) * (bins_x1 * bins_x2)
    idx_flat_offset = (idx_flat + offset.unsqueeze(1)).reshape(-1)
    weights_flat = weights.reshape(-1)
    valid = ((x1_flat >= x1_edges[0]) & (x1_flat <= x1_edges[-1]) & (x2_flat >= x2_edges[0]) & (x2_flat <= x2_edges[-1]))

    hist_flat = torch.zeros(B * bins_x1 * bins_x2, dtype=x1.dtype)
    hist_flat.index_add_(0, idx_flat_offset[valid.reshape(-1)], weights_flat[valid.reshape(-1)])
    return hist_flat.view(*batch_shape, bins_x1, bins_x2)


def screen_reading(
    x: Float[Tensor, "*batch n_particles"],
    y: Float[Tensor, "*batch n_particles"],
    charge: Float[Tensor, "*batch n_particles"],
    resolution: tuple[int, int] = (16, 12),
    pixel_size: float = 1e-4,
) -> Float[Tensor, "*batch n_x n_y"]:
    """Image of a beam on a screen centred at the beam axis."""
    x_centers = (torch.arange(resolution[0]) - (resolution[0] - 1) / 2) * pixel_size
    y_centers = (torch.arange(resolution[1]) - (resolution[1] - 1) / 2) * pixel_size
    return vectorized_histogram_2d(x, y, x_centers, y_centers, weights=charge)


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(2, 2000, dtype=torch.float64) * torch.tensor([[6e-4], [9e-4]], dtype=torch.float64)
    y = torch.randn(2, 2000, dtype=torch.float64) * 4e-4
    charge = torch.full((2, 2000), 1e-3, dtype=torch.float64)
    image = screen_reading(x, y, charge)

    xe = _bin_centers_to_edges((torch.arange(16) - 7.5).double() * 1e-4).tolist()
    ye = _bin_centers_to_edges((torch.arange(12) - 5.5).double() * 1e-4).tolist()
    ref = torch.zeros(2, 16, 12, dtype=torch.float64)
    for b in range(2):
        for px, py, q in zip(x[b].tolist(), y[b].tolist(), charge[b].tolist()):
            if xe[0] <= px <= xe[-1] and ye[0] <= py <= ye[-1]:
                ref[b, max(bisect_left(xe, px) - 1, 0), max(bisect_left(ye, py) - 1, 0)] += q
    print("charge on screen:", [round(v, 4) for v in image.sum((1, 2)).tolist()],
          "expected:", [round(v, 4) for v in ref.sum((1, 2)).tolist()])
    print("left edge column:", round(image[1, 0].sum().item(), 4), "expected:", round(ref[1, 0].sum().item(), 4))
    assert torch.allclose(image, ref)
    print("ok")
