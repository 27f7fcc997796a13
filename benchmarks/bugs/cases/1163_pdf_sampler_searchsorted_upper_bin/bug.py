import torch
from jaxtyping import Float


class PDFSampler:
    """Hierarchical (importance) sampler along rays, as used for the fine NeRF pass."""

    def __init__(self, num_samples: int, histogram_padding: float = 0.01):
        self.num_samples = num_samples
        self.histogram_padding = histogram_padding

    def __call__(
        self,
        bin_edges: Float[torch.Tensor, "rays edges"],
        weights: Float[torch.Tensor, "rays bins"],
    ) -> Float[torch.Tensor, "rays samples"]:
        weights = weights + self.histogram_padding
        pdf = weights / weights.sum(dim=-1, keepdim=True)
        cdf = torch.cumsum(pdf, dim=-1).clamp(max=1.0)
        cdf = torch.cat([torch.zeros_like(cdf[..., :1]), cdf], dim=-1)

        u = torch.linspace(0.0, 1.0, self.num_samples)
        u = u.expand(cdf.shape[0], self.num_samples).contiguous()

        inds = torch.searchsorted(cdf, u, right=True)
        below = (inds - 1).clamp(min=0)
        above = inds
        cdf_g0 = torch.gather(cdf, -1, below)
        cdf_g1 = torch.gather(cdf, -1, above)
        bins_g0 = torch.gather(bin_edges, -1, below)
        bins_g1 = torch.gather(bin_edges, -1, above)

        t = ((u - cdf_g0) / (cdf_g1 - cdf_g0).clamp(min=1e-8)).clamp(0.0, 1.0)
        return bins_g0 + t * (bins_g1 - bins_g0)


def coarse_pass(num_rays: int, num_bins: int):
    edges = torch.linspace(2.0, 6.0, num_bins + 1).expand(num_rays, num_bins + 1).contiguous()
    weights = torch.rand(num_rays, num_bins)
    return edges, weights


if __name__ == "__main__":
    torch.manual_seed(0)
    edges, weights = coarse_pass(num_rays=4, num_bins=16)
    sampler = PDFSampler(num_samples=8)
    fine = sampler(edges, weights)
    print("fine samples:", fine.shape)
