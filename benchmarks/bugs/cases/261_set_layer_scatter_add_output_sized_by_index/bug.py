import torch
import torch.nn as nn


def scatter_add(src, index, dim=-1, out=None, dim_size=None):
    if out is None:
        size = list(src.size())
        size[dim] = dim_size if dim_size is not None else int(index.max()) + 1
        out = src.new_zeros(size)
    return out.scatter_add_(dim, index.expand_as(src), src)


class SETLayer(nn.Module):
    """Sparse layer of Sparse Evolutionary Training: only the connections in the mask exist."""

    def __init__(self, indim, outdim, density=0.2, zeta=0.3):
        super().__init__()
        self.indim, self.outdim, self.zeta = indim, outdim, zeta
        mask = torch.rand(outdim, indim) < density
        self.register_buffer("inds_out", mask.nonzero()[:, 0])
        self.register_buffer("inds_in", mask.nonzero()[:, 1])
        self.weight = nn.Parameter(torch.randn(len(self.inds_in)) * 0.1)
        self.bias = nn.Parameter(torch.zeros(outdim))

    def forward(self, x):
        k = x[:, self.inds_in] * self.weight
        z = scatter_add(k, self.inds_out)
        return z + self.bias

    @torch.no_grad()
    def evolve(self):
        n_prune = int(self.zeta * len(self.weight))
        keep = self.weight.abs().argsort(descending=True)[: len(self.weight) - n_prune]
        keep = keep.sort().values
        self.inds_in, self.inds_out = self.inds_in[keep], self.inds_out[keep]
        self.weight = nn.Parameter(self.weight[keep])


class SETNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = SETLayer(12, 8)
        self.out = nn.Linear(8, 3)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x)))


if __name__ == "__main__":
    torch.manual_seed(0)
    net = SETNet()
    x = torch.randn(5, 12)
    print("logits before evolution:", tuple(net(x).shape))
    for _ in range(3):
        net.hidden.evolve()
        print("connected output neurons:", sorted(set(net.hidden.inds_out.tolist())))
        print("logits:", tuple(net(x).shape))
