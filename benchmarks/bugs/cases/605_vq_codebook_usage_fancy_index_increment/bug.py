import torch
import torch.nn as nn


class VectorQuantizer(nn.Module):
    def __init__(self, num_codes, dim, decay=0.9, dead_threshold=1.0):
        super().__init__()
        self.codebook = nn.Parameter(torch.randn(num_codes, dim))
        self.register_buffer("usage", torch.zeros(num_codes))
        self.decay = decay
        self.dead_threshold = dead_threshold

    def forward(self, z):
        flat = z.reshape(-1, z.size(-1))
        codes = torch.cdist(flat, self.codebook).argmin(dim=-1)
        quantized = self.codebook[codes].view_as(z)
        if self.training:
            batch_counts = torch.zeros_like(self.usage)
            batch_counts[codes] += 1
            self.usage.mul_(self.decay).add_(batch_counts, alpha=1 - self.decay)
        return quantized, codes

    def dead_codes(self):
        return (self.usage * 10 < self.dead_threshold).nonzero().flatten()


if __name__ == "__main__":
    torch.manual_seed(0)
    vq = VectorQuantizer(num_codes=8, dim=4)
    z = torch.randn(2, 32, 4)
    _, codes = vq(z)
    print("code histogram:", torch.bincount(codes, minlength=8).tolist())
    print("usage buffer  :", (vq.usage * 10).round().tolist())
