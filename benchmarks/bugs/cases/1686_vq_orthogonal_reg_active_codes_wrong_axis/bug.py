import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


def orthogonal_loss_fn(t: Float[Tensor, "h n d"]) -> Float[Tensor, ""]:
    # eq (2) from https://arxiv.org/abs/2112.00384
    h, n = t.shape[:2]
    normed_codes = F.normalize(t, dim=-1)
    cosine_sim = torch.einsum("h i d, h j d -> h i j", normed_codes, normed_codes)
    return (cosine_sim**2).sum() / (h * n**2) - (1 / n)


class EuclideanCodebook(nn.Module):
    def __init__(self, dim: int, codebook_size: int, num_codebooks: int = 1):
        super().__init__()
        self.embed = nn.Parameter(torch.randn(num_codebooks, codebook_size, dim))

    def forward(self, x: Float[Tensor, "h n d"]) -> tuple[Float[Tensor, "h n d"], Int[Tensor, "h n"]]:
        embed_ind = torch.cdist(x, self.embed).argmin(dim=-1)
        quantize = self.embed.gather(1, embed_ind.unsqueeze(-1).expand(-1, -1, x.shape[-1]))
        return quantize, embed_ind


class VectorQuantize(nn.Module):
    def __init__(self, dim, codebook_size, orthogonal_reg_weight=0.0,
                 orthogonal_reg_active_codes_only=False, orthogonal_reg_max_codes=None):
        super().__init__()
        self._codebook = EuclideanCodebook(dim, codebook_size)
        self.orthogonal_reg_weight = orthogonal_reg_weight
        self.orthogonal_reg_active_codes_only = orthogonal_reg_active_codes_only
        self.orthogonal_reg_max_codes = orthogonal_reg_max_codes

    def forward(self, x: Float[Tensor, "b n d"]) -> tuple[Float[Tensor, "b n d"], Int[Tensor, "b n"], Float[Tensor, ""]]:
        b, n, d = x.shape
        quantize, embed_ind = self._codebook(x.reshape(1, b * n, d))
        loss = F.mse_loss(quantize.detach(), x.reshape(1, b * n, d))

        if self.orthogonal_reg_weight > 0:
            codebook: Float[Tensor, "h c d"] = self._codebook.embed
            if self.orthogonal_reg_active_codes_only:
                unique_code_ids = torch.unique(embed_ind)
                codebook = codebook[unique_code_ids]
            num_codes = codebook.shape[0]
            if self.orthogonal_reg_max_codes is not None and num_codes > self.orthogonal_reg_max_codes:
                rand_ids = torch.randperm(num_codes)[: self.orthogonal_reg_max_codes]
                codebook = codebook[rand_ids]
            loss = loss + orthogonal_loss_fn(codebook) * self.orthogonal_reg_weight

        quantize = x + (quantize.reshape(b, n, d) - x).detach()
        return quantize, embed_ind.reshape(b, n), loss


if __name__ == "__main__":
    torch.manual_seed(0)
    vq = VectorQuantize(dim=4, codebook_size=16, orthogonal_reg_weight=10.0,
                        orthogonal_reg_active_codes_only=True)
    x = torch.randn(2, 6, 4)
    quantized, indices, loss = vq(x)
    print("codes used:", indices.unique().numel(), "loss:", loss.item())
