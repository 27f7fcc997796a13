"""VQ-VAE quantizer with an exponential-moving-average codebook (no codebook loss term)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EMAVectorQuantizer(nn.Module):
    def __init__(self, num_embeddings, embedding_dim, decay=0.9, eps=1e-5):
        super().__init__()
        self.num_embeddings, self.embedding_dim, self.decay, self.eps = num_embeddings, embedding_dim, decay, eps
        embed = torch.randn(num_embeddings, embedding_dim)
        self.register_buffer("embed", embed)  # [K, D]
        self.register_buffer("cluster_size", torch.zeros(num_embeddings))  # [K]
        self.register_buffer("embed_avg", embed.clone())  # [K, D]

    def forward(self, z_e):
        # z_e: [B, D, H, W] encoder output
        z = z_e.permute(0, 2, 3, 1).contiguous()  # [B, H, W, D]
        flat = z.view(-1, self.embedding_dim)  # [N, D]
        dist = flat.pow(2).sum(1, keepdim=True) - 2 * flat @ self.embed.t() + self.embed.pow(2).sum(1)[None, :]  # [N, K]
        codes = dist.argmin(dim=1)  # [N]
        quantized = F.embedding(codes, self.embed).view_as(z)  # [B, H, W, D]
        if self.training:
            with torch.no_grad():
                onehot = torch.zeros(flat.shape[0], self.num_embeddings).scatter_(1, codes.unsqueeze(1), 1.0)  # [N, K]
                counts = onehot.sum(0)  # [K]
                embed_sum = torch.zeros_like(self.embed).index_add_(0, codes, flat)  # [K, D]
                self.cluster_size.mul_(self.decay).add_(counts, alpha=1 - self.decay)
                self.embed_avg.mul_(self.decay).add_(embed_sum, alpha=1 - self.decay)
                n = self.cluster_size.sum()
                smoothed = (self.cluster_size + self.eps) / (n + self.num_embeddings * self.eps) * n  # [K]
                self.embed.copy_(self.embed_avg / smoothed.unsqueeze(1))
        commitment = F.mse_loss(z, quantized.detach())
        quantized = z + (quantized - z).detach()  # straight-through estimator
        return quantized.permute(0, 3, 1, 2), codes.view(z.shape[:-1]), commitment


if __name__ == "__main__":
    torch.manual_seed(0)
    vq = EMAVectorQuantizer(num_embeddings=6, embedding_dim=3, decay=0.9)
    embed0, size0, avg0 = vq.embed.clone(), vq.cluster_size.clone(), vq.embed_avg.clone()
    z_e = torch.randn(2, 3, 4, 4)
    quantized, codes, commitment = vq(z_e)

    # plain-loop reference
    vectors = z_e.permute(0, 2, 3, 1).reshape(-1, 3).tolist()
    ref_codes = []
    for v in vectors:
        d = [sum((a - b) ** 2 for a, b in zip(v, e)) for e in embed0.tolist()]
        ref_codes.append(min(range(6), key=lambda k: d[k]))
    assert codes.flatten().tolist() == ref_codes
    counts = [ref_codes.count(k) for k in range(6)]
    sums = [[sum(v[d] for v, c in zip(vectors, ref_codes) if c == k) for d in range(3)] for k in range(6)]
    size = [0.9 * size0[k].item() + 0.1 * counts[k] for k in range(6)]
    avg = [[0.9 * avg0[k, d].item() + 0.1 * sums[k][d] for d in range(3)] for k in range(6)]
    n = sum(size)
    smoothed = [(size[k] + 1e-5) / (n + 6 * 1e-5) * n for k in range(6)]
    expected_embed = torch.tensor([[avg[k][d] / smoothed[k] for d in range(3)] for k in range(6)])
    assert torch.allclose(vq.embed, expected_embed, atol=1e-5)
    q = quantized.permute(0, 2, 3, 1).reshape(-1, 3)
    assert all(torch.allclose(q[i], embed0[c], atol=1e-5) for i, c in enumerate(ref_codes))
    print("ok")
