import torch
import torch.nn as nn


class KMeansCodebook(nn.Module):
    def __init__(self, num_codes, dim):
        super().__init__()
        self.register_buffer("codebook", torch.randn(num_codes, dim))

    def assign(self, x):
        return torch.cdist(x, self.codebook).argmin(dim=1)

    @torch.no_grad()
    def lloyd_step(self, x):
        codes = self.assign(x)
        num_codes, dim = self.codebook.shape
        sums = torch.zeros(num_codes, dim).index_add_(0, codes, x)
        counts = torch.bincount(codes, minlength=num_codes)
        used = codes.unique()
        centroids = sums[used] / counts[used].unsqueeze(1)
        # move the codes that received points to the mean of their cluster; unused codes stay put
        self.codebook.scatter_(0, codes.unsqueeze(1).expand(-1, dim), centroids)
        return codes

    def inertia(self, x):
        return torch.cdist(x, self.codebook).min(dim=1).values.pow(2).sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    centers = torch.tensor([[0.0, 0.0, 0.0, 0.0], [5.0, 5.0, 0.0, 0.0], [0.0, 5.0, 5.0, 5.0]])
    x = centers[torch.randint(0, 3, (60,))] + 0.3 * torch.randn(60, 4)
    quantizer = KMeansCodebook(num_codes=6, dim=4)
    for it in range(5):
        quantizer.lloyd_step(x)
        print(f"iter {it}: inertia {quantizer.inertia(x).item():.3f}")
