from dataclasses import dataclass

import torch
import torch.nn as nn
from jaxtyping import Float


@dataclass
class SAEConfig:
    d_in: int = 16
    d_sae: int = 64
    k: int = 4


class TopKActivation(nn.Module):
    """Keep the k largest pre-activations of every input row, zero the rest."""

    def __init__(self, k: int):
        super().__init__()
        self.k = k

    def forward(self, pre: Float[torch.Tensor, "... d_sae"]) -> Float[torch.Tensor, "... d_sae"]:
        top_vals, top_idx = pre.topk(self.k, dim=1)
        return torch.zeros_like(pre).scatter(1, top_idx, top_vals.relu())


class TopKSAE(nn.Module):
    def __init__(self, cfg: SAEConfig):
        super().__init__()
        self.W_enc = nn.Parameter(torch.randn(cfg.d_in, cfg.d_sae) * 0.3)
        self.b_enc = nn.Parameter(torch.zeros(cfg.d_sae))
        self.W_dec = nn.Parameter(torch.randn(cfg.d_sae, cfg.d_in) * 0.3)
        self.b_dec = nn.Parameter(torch.zeros(cfg.d_in))
        self.act = TopKActivation(cfg.k)

    def encode(self, x: Float[torch.Tensor, "batch seq d_in"]) -> Float[torch.Tensor, "batch seq d_sae"]:
        pre = (x - self.b_dec) @ self.W_enc + self.b_enc
        return self.act(pre)

    def forward(self, x: Float[torch.Tensor, "batch seq d_in"]) -> Float[torch.Tensor, "batch seq d_in"]:
        return self.encode(x) @ self.W_dec + self.b_dec


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = SAEConfig()
    sae = TopKSAE(cfg)
    resid = torch.randn(2, 6, cfg.d_in) + 1.0  # residual-stream activations from a hooked model
    with torch.no_grad():
        feats = sae.encode(resid)
    l0 = (feats != 0).sum(-1)
    print("L0 per token:", l0.tolist(), "expected at most", cfg.k)
