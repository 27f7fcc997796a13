from dataclasses import dataclass

import torch
import torch.nn as nn


def mark_first_hit(ridx):
    """Mark the first entry of every ray's pack.

    Args:
        ridx (torch.IntTensor): ray index of each sample, sorted, of shape [num_samples].

    Returns:
        (torch.IntTensor): 1 where a new pack starts, 0 elsewhere, of shape [num_samples].
    """
    first = torch.ones_like(ridx, dtype=torch.int32)
    first[1:] = (ridx[1:] != ridx[:-1]).int()
    return first


@dataclass
class RaymarchResults:
    ridx: torch.Tensor
    samples: torch.Tensor
    deltas: torch.Tensor
    boundary: torch.Tensor


def raymarch(origins, dirs, hits_per_ray, num_samples):
    """Sample points inside the cells every ray intersects.

    Args:
        origins (torch.FloatTensor): ray origins of shape [num_rays, 3].
        dirs (torch.FloatTensor): ray directions of shape [num_rays, 3].
        hits_per_ray (list[int]): number of occupied cells each ray crosses (0 = miss).
        num_samples (int): samples per intersected cell.

    Returns:
        (RaymarchResults) with ``ridx`` [num_hit_samples], ``samples`` [num_hit_samples, 3],
        ``deltas`` [num_hit_samples, 1] and ``boundary`` [num_hit_samples] marking the first
        sample of each ray's pack.
    """
    ridx = torch.repeat_interleave(torch.arange(origins.shape[0]), torch.tensor(hits_per_ray) * num_samples)
    t = torch.cat([torch.linspace(0.1, 2.0, n * num_samples) for n in hits_per_ray if n > 0])
    samples = origins.index_select(0, ridx) + dirs.index_select(0, ridx) * t[:, None]
    deltas = torch.full((ridx.shape[0], 1), 0.05)
    boundary = mark_first_hit(ridx.int())
    return RaymarchResults(ridx=ridx, samples=samples, deltas=deltas, boundary=boundary)


class DensityField(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, 1), nn.Softplus())

    def forward(self, coords):
        return self.net(coords)


def trace_alpha(field, origins, dirs, hits_per_ray, num_samples):
    """Per-ray opacity: alpha = 1 - exp(-sum(density * delta)) over the ray's samples.

    Returns:
        (torch.FloatTensor): alpha of shape [num_rays, 1], 0 for rays that miss.
    """
    N = origins.shape[0]
    out_alpha = torch.zeros(N, 1)
    results = raymarch(origins, dirs, hits_per_ray, num_samples)
    ridx, boundary = results.ridx, results.boundary

    # Get the indices of the ray tensor which correspond to hits
    ridx_hit = ridx[boundary]

    tau = field(results.samples) * results.deltas
    pack_id = boundary.cumsum(0) - 1
    tau_per_ray = torch.zeros(int(pack_id[-1]) + 1, 1).index_add_(0, pack_id, tau)
    alpha = 1.0 - torch.exp(-tau_per_ray)
    out_alpha[ridx_hit] = alpha
    return out_alpha


if __name__ == "__main__":
    torch.manual_seed(0)
    field = DensityField()
    origins = torch.randn(6, 3)
    dirs = nn.functional.normalize(torch.randn(6, 3), dim=-1)
    hits_per_ray = [2, 0, 1, 3, 0, 1]
    with torch.no_grad():
        alpha = trace_alpha(field, origins, dirs, hits_per_ray, num_samples=4)
    print("alpha per ray:", alpha.squeeze(-1).tolist())
