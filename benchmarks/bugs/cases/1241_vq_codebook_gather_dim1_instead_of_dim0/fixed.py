import torch
import torch.nn as nn


class VectorQuantizer(nn.Module):
    """VQ-VAE bottleneck with a learned codebook.

    Args:
        num_codes: K, number of codebook entries.
        code_dim: D, size of each code vector.
        beta: commitment loss weight.
    """

    def __init__(self, num_codes, code_dim, beta=0.25):
        super().__init__()
        self.codebook = nn.Parameter(torch.randn(num_codes, code_dim))
        self.beta = beta

    def lookup(self, codes):
        """Fetch code vectors.

        Args:
            codes: LongTensor of shape (N,) with values in [0, K).

        Returns:
            Tensor of shape (N, D): row ``codes[n]`` of the codebook for every n.
        """
        index = codes.unsqueeze(1).expand(-1, self.codebook.size(1))  # (N, D)
        return torch.gather(self.codebook, 0, index)

    def forward(self, z_e):
        """
        Args:
            z_e: encoder output of shape (B, T, D).

        Returns:
            z_q: quantized tensor (B, T, D) with straight-through gradients,
            codes: (B, T) chosen code ids,
            loss: codebook + commitment loss (scalar).
        """
        flat = z_e.reshape(-1, z_e.size(-1))  # (B*T, D)
        dist = torch.cdist(flat, self.codebook)  # (B*T, K)
        codes = dist.argmin(dim=1)  # (B*T,)
        z_q = self.lookup(codes).view_as(z_e)
        loss = ((z_q - z_e.detach()) ** 2).mean() + self.beta * ((z_q.detach() - z_e) ** 2).mean()
        z_q = z_e + (z_q - z_e).detach()
        return z_q, codes.view(z_e.shape[:-1]), loss


if __name__ == "__main__":
    torch.manual_seed(0)
    vq = VectorQuantizer(num_codes=8, code_dim=4)
    z_e = torch.randn(2, 6, 4)
    z_q, codes, loss = vq(z_e)
    with torch.no_grad():
        for b in range(2):
            for t in range(6):
                d = [float(((z_e[b, t] - vq.codebook[k]) ** 2).sum()) for k in range(8)]
                k = min(range(8), key=lambda i: d[i])
                assert int(codes[b, t]) == k
                assert torch.allclose(z_q[b, t], vq.codebook[k], atol=1e-6)
    print("ok")
