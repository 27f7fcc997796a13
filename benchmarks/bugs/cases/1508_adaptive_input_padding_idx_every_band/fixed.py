from typing import List

import torch
from torch import nn


class AdaptiveInput(nn.Module):
    """Adaptive input embeddings (Baevski & Auli): frequent words get wide vectors, rare words narrow ones."""

    def __init__(self, vocab_size: int, padding_idx: int, initial_dim: int, factor: float,
                 output_dim: int, cutoff: List[int]):
        super().__init__()
        if vocab_size > cutoff[-1]:
            cutoff = cutoff + [vocab_size]
        self.cutoff = cutoff
        self.embedding_dim = output_dim
        self.padding_idx = padding_idx

        self.embeddings = nn.ModuleList()
        for i in range(len(self.cutoff)):
            prev = self.cutoff[i - 1] if i > 0 else 0
            size = self.cutoff[i] - prev
            dim = int(initial_dim // (factor ** i))
            band = nn.Sequential(
                nn.Embedding(size, dim, padding_idx if i == 0 else None),
                nn.Linear(dim, output_dim, bias=False),
            )
            self.embeddings.append(band)

        for band in self.embeddings:
            nn.init.normal_(band[0].weight, mean=0, std=band[0].weight.shape[1] ** -0.5)
            if band[0].padding_idx is not None:
                with torch.no_grad():
                    band[0].weight[band[0].padding_idx].zero_()

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        result = tokens.new_zeros(tokens.shape + (self.embedding_dim,), dtype=torch.float)
        for i in range(len(self.cutoff)):
            mask = tokens.lt(self.cutoff[i])
            if i > 0:
                mask &= tokens.ge(self.cutoff[i - 1])
                chunk = tokens[mask] - self.cutoff[i - 1]
            else:
                chunk = tokens[mask]
            if mask.any():
                result[mask] = self.embeddings[i](chunk)
        return result


if __name__ == "__main__":
    torch.manual_seed(0)
    emb = AdaptiveInput(vocab_size=1200, padding_idx=1, initial_dim=64, factor=4.0, output_dim=64,
                        cutoff=[200, 600])
    tokens = torch.tensor([[5, 1, 201, 601, 400], [199, 1, 1, 650, 1199]])
    out = emb(tokens)
    ref = torch.zeros(2, 5, 64)
    bounds = [0] + emb.cutoff
    for b in range(2):
        for t in range(5):
            w = int(tokens[b, t])
            i = next(k for k in range(len(emb.cutoff)) if w < emb.cutoff[k])
            ref[b, t] = emb.embeddings[i][1](emb.embeddings[i][0].weight[w - bounds[i]])
            assert (ref[b, t].norm() == 0) == (w == 1)
    assert torch.allclose(out, ref, atol=1e-6)
    print("ok")
