import torch
import torch.nn as nn


class VectorQuantizerEMA(nn.Module):
    def __init__(self, num_codes, dim, decay=0.9, eps=1e-5):
        super().__init__()
        self.decay, self.eps = decay, eps
        self.register_buffer("codebook", torch.randn(num_codes, dim))        # [K, D]
        self.register_buffer("ema_count", torch.ones(num_codes))            # [K]
        self.register_buffer("ema_sum", self.codebook.clone())              # [K, D]

    def assign(self, z):
        # z: [N, D] -> codes: [N]
        return torch.cdist(z, self.codebook).argmin(dim=1)

    @torch.no_grad()
    def update(self, z, codes):
        # z: [N, D], codes: [N] with values in [0, K)
        counts = torch.zeros_like(self.ema_count)                           # [K]
        counts[codes] += 1.0
        sums = torch.zeros_like(self.ema_sum)                               # [K, D]
        sums[codes] += z
        self.ema_count.mul_(self.decay).add_(counts, alpha=1 - self.decay)
        self.ema_sum.mul_(self.decay).add_(sums, alpha=1 - self.decay)
        n = self.ema_count.sum()
        smoothed = (self.ema_count + self.eps) / (n + self.codebook.size(0) * self.eps) * n
        self.codebook.copy_(self.ema_sum / smoothed.unsqueeze(1))
        return counts, sums

    def forward(self, z):
        codes = self.assign(z)
        if self.training:
            self.update(z, codes)
        quantized = self.codebook[codes]                                    # [N, D]
        return z + (quantized - z).detach(), codes


if __name__ == "__main__":
    torch.manual_seed(0)
    vq = VectorQuantizerEMA(num_codes=4, dim=3)
    z = torch.randn(32, 3)                                                  # [N, D]
    codes = vq.assign(z)
    counts, sums = vq.update(z, codes)
    print("codes per entry (bincount):", torch.bincount(codes, minlength=4).tolist())
    print("counts used for the EMA:   ", counts.tolist())
    print("assigned vectors:", int(counts.sum()), "of", z.size(0))
