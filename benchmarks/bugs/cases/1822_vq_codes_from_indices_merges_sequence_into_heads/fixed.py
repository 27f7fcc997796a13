import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class VectorQuantize(nn.Module):
    def __init__(self, dim: int, codebook_size: int, codebook_dim: int, heads: int = 1):
        super().__init__()
        self.heads = heads
        self.project_in = nn.Linear(dim, codebook_dim * heads)
        self.project_out = nn.Linear(codebook_dim * heads, dim)
        self.codebook = nn.Parameter(torch.randn(heads, codebook_size, codebook_dim))

    def quantize(self, x: Float[Tensor, "b n d"]) -> tuple[Float[Tensor, "b n d"], Tensor]:
        b, n, _ = x.shape
        z = self.project_in(x).view(b, n, self.heads, -1)                   # (b, n, h, c)
        dist = torch.cdist(z.permute(2, 0, 1, 3).reshape(self.heads, b * n, -1), self.codebook)
        ind = dist.argmin(dim=-1).view(self.heads, b, n).permute(1, 2, 0)    # (b, n, h)
        indices = ind.squeeze(-1) if self.heads == 1 else ind
        return self.get_output_from_indices(indices), indices

    def get_codes_from_indices(self, indices: Int[Tensor, "b n"] | Int[Tensor, "b n h"]) -> Float[Tensor, "b n hc"]:
        if self.heads > 1:
            codes = self.codebook[torch.arange(self.heads), indices].flatten(-2)
        else:
            codes = self.codebook[0][indices]
        return codes

    def get_output_from_indices(self, indices: Int[Tensor, "b n"] | Int[Tensor, "b n h"]) -> Float[Tensor, "b n d"]:
        return self.project_out(self.get_codes_from_indices(indices))


if __name__ == "__main__":
    torch.manual_seed(0)
    vq = VectorQuantize(dim=64, codebook_size=128, codebook_dim=16)
    x = torch.randn(2, 32, 64)
    with torch.no_grad():
        quantized, indices = vq.quantize(x)
        recon = vq.get_output_from_indices(indices)
    ref = torch.zeros(2, 32, 16)
    for bi in range(2):
        for ni in range(32):
            ref[bi, ni] = vq.codebook[0, int(indices[bi, ni])]
    assert torch.allclose(vq.get_codes_from_indices(indices), ref)
    assert torch.allclose(recon, vq.project_out(ref), atol=1e-6)
    print("ok")
