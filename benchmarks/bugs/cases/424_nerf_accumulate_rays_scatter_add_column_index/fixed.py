import torch
import torch.nn as nn


class TinyField(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, positions):
        out = self.mlp(positions)
        return torch.sigmoid(out[:, :3]), torch.relu(out[:, 3])


def sample_along_rays(rays_o, rays_d, max_samples, generator):
    n_rays = rays_o.shape[0]
    counts = torch.randint(1, max_samples + 1, (n_rays,), generator=generator)
    ray_indices = torch.repeat_interleave(torch.arange(n_rays), counts)
    t_starts = torch.rand(ray_indices.shape[0], generator=generator) * 4.0
    t_ends = t_starts + 0.05
    positions = rays_o[ray_indices] + rays_d[ray_indices] * ((t_starts + t_ends) / 2)[:, None]
    return ray_indices, t_starts, t_ends, positions


def accumulate_along_rays(weights, values, ray_indices, n_rays):
    src = weights[:, None] * values
    out = torch.zeros(n_rays, values.shape[-1])
    out.scatter_add_(0, ray_indices[:, None].expand_as(src), src)
    return out


def render_rays(field, rays_o, rays_d, generator):
    ray_indices, t_starts, t_ends, positions = sample_along_rays(rays_o, rays_d, 6, generator)
    rgbs, sigmas = field(positions)
    alphas = 1.0 - torch.exp(-sigmas * (t_ends - t_starts))
    colors = accumulate_along_rays(alphas, rgbs, ray_indices, rays_o.shape[0])
    return colors, (alphas, rgbs, ray_indices)


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    field = TinyField()
    rays_o = torch.randn(16, 3)
    rays_d = nn.functional.normalize(torch.randn(16, 3), dim=-1)
    with torch.no_grad():
        colors, (alphas, rgbs, ray_indices) = render_rays(field, rays_o, rays_d, g)
    ref = torch.zeros(16, 3)
    for s in range(ray_indices.shape[0]):
        r = int(ray_indices[s])
        for c in range(3):
            ref[r, c] += alphas[s] * rgbs[s, c]
    assert torch.allclose(colors, ref, atol=1e-6)
    assert (colors[:, 1:] != 0).any()
    print("ok")
