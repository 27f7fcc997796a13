import torch
import torch.nn as nn


class RadianceField(nn.Module):
    def __init__(self, hidden: int = 32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, 4))

    def forward(self, points: torch.Tensor):
        out = self.mlp(points)
        return torch.sigmoid(out[:, :3]), torch.relu(out[:, 3])


def composite_packed_samples(rgb, sigma, t_starts, t_ends, ray_indices, num_rays):
    """Volume rendering over packed samples.

    Args:
        rgb: (S, 3) colour per sample.
        sigma: (S,) density per sample.
        t_starts, t_ends: (S,) interval bounds along the ray.
        ray_indices: (S,) ray id of every sample, samples of a ray contiguous and ordered by t.
        num_rays: R.
    Returns:
        colors (R, 3), opacities (R,), depths (R,).
    """
    delta = t_ends - t_starts
    alpha = 1.0 - torch.exp(-sigma * delta)
    tau = sigma * delta
    cum = torch.zeros(num_rays).index_add_(0, ray_indices, tau)
    per_sample_cum = torch.cumsum(tau, 0)
    ray_start = torch.cumsum(torch.bincount(ray_indices, minlength=num_rays), 0) - torch.bincount(ray_indices, minlength=num_rays)
    offset = torch.cat([torch.zeros(1), per_sample_cum])[ray_start]
    exclusive = per_sample_cum - tau - offset.index_select(0, ray_indices)
    weights = torch.exp(-exclusive) * alpha
    colors = torch.zeros(num_rays, 3).index_add_(0, ray_indices, weights.unsqueeze(-1) * rgb)
    opacities = torch.zeros(num_rays).index_add_(0, ray_indices, weights)
    mids = 0.5 * (t_starts + t_ends)
    depths = torch.zeros(num_rays).index_add_(0, ray_indices, weights * mids)
    assert torch.allclose(cum, torch.zeros(num_rays).scatter_add_(0, ray_indices, tau))
    return colors, opacities, depths


def farthest_sample_per_ray(t_ends, ray_indices, num_rays):
    far = torch.full((num_rays,), float("-inf")).scatter_reduce(0, ray_indices, t_ends, reduce="amax", include_self=True)
    return far.gather(0, ray_indices)


if __name__ == "__main__":
    torch.manual_seed(0)
    counts = [3, 5, 1, 4]
    R = len(counts)
    ray_indices = torch.repeat_interleave(torch.arange(R), torch.tensor(counts))
    S = ray_indices.numel()
    t_starts = torch.cat([torch.sort(torch.rand(c)).values for c in counts])
    t_ends = t_starts + 0.1
    field = RadianceField()
    with torch.no_grad():
        rgb, sigma = field(torch.randn(S, 3))
        colors, opac, depths = composite_packed_samples(rgb, sigma, t_starts, t_ends, ray_indices, R)
        far = farthest_sample_per_ray(t_ends, ray_indices, R)

    s = 0
    for r, c in enumerate(counts):
        T = 1.0
        col = [0.0, 0.0, 0.0]
        op = 0.0
        dep = 0.0
        for k in range(s, s + c):
            d = (t_ends[k] - t_starts[k]).item()
            a = 1.0 - torch.exp(-sigma[k] * d).item()
            w = T * a
            for ch in range(3):
                col[ch] += w * rgb[k, ch].item()
            op += w
            dep += w * 0.5 * (t_starts[k] + t_ends[k]).item()
            T *= 1.0 - a
        for ch in range(3):
            assert abs(colors[r, ch].item() - col[ch]) < 1e-5
        assert abs(opac[r].item() - op) < 1e-5
        assert abs(depths[r].item() - dep) < 1e-5
        for k in range(s, s + c):
            assert far[k].item() == max(t_ends[j].item() for j in range(s, s + c))
        s += c
    print("ok")
