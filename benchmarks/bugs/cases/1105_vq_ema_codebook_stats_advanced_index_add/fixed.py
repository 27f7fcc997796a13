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
        counts.index_add_(0, codes, torch.ones_like(codes, dtype=counts.dtype))
        sums = torch.zeros_like(self.ema_sum)                               # [K, D]
        sums.index_add_(0, codes, z)
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
    ref_counts = [0.0] * 4
    ref_sums = [[0.0] * 3 for _ in range(4)]
    for n in range(z.size(0)):
        k = int(codes[n])
        ref_counts[k] += 1.0
        for d in range(3):
            ref_sums[k][d] += float(z[n, d])
    assert counts.tolist() == ref_counts
    assert torch.allclose(sums, torch.tensor(ref_sums), atol=1e-5)
    vq.train()
    vq(z)
    print("ok")
