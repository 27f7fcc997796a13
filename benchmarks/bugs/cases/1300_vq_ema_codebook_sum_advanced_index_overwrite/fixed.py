import torch
import torch.nn as nn


class EMAVectorQuantizer(nn.Module):
    def __init__(self, num_codes, code_dim, decay=0.99, eps=1e-5):
        super().__init__()
        self.decay, self.eps = decay, eps
        self.codebook = nn.Embedding(num_codes, code_dim)
        self.register_buffer("cluster_size", torch.zeros(num_codes))
        self.register_buffer("embed_avg", self.codebook.weight.detach().clone())

    def assign(self, flat_inputs):
        dist = torch.cdist(flat_inputs, self.codebook.weight)
        return dist.argmin(dim=1)

    @torch.no_grad()
    def ema_update(self, flat_inputs, codes):
        counts = torch.zeros_like(self.cluster_size)
        embed_sum = torch.zeros_like(self.embed_avg)
        counts.index_add_(0, codes, torch.ones_like(codes, dtype=counts.dtype))
        embed_sum.index_add_(0, codes, flat_inputs)
        self.cluster_size.mul_(self.decay).add_(counts, alpha=1 - self.decay)
        self.embed_avg.mul_(self.decay).add_(embed_sum, alpha=1 - self.decay)
        n = self.cluster_size.sum()
        smoothed = (self.cluster_size + self.eps) / (n + self.cluster_size.numel() * self.eps) * n
        self.codebook.weight.copy_(self.embed_avg / smoothed.unsqueeze(1))
        return embed_sum


if __name__ == "__main__":
    torch.manual_seed(0)
    vq = EMAVectorQuantizer(num_codes=8, code_dim=4)
    inputs = torch.randn(2, 32, 4)
    flat = inputs.reshape(-1, 4)
    codes = vq.assign(flat)
    embed_sum = vq.ema_update(flat, codes)
    ref = [[0.0] * 4 for _ in range(8)]
    for i, c in enumerate(codes.tolist()):
        for d in range(4):
            ref[c][d] += flat[i, d].item()
    ref = torch.tensor(ref)
    assert torch.allclose(embed_sum, ref, atol=1e-5)
    print("ok")
