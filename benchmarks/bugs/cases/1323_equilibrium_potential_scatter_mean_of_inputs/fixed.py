import torch
import torch.nn as nn


class ResNetPotential(nn.Module):
    def __init__(self, in_channels, out_channels, hidden):
        super().__init__()
        sizes = [in_channels + out_channels] + hidden + [1]
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))

    def node_scores(self, x, y, index):
        h = torch.cat([x, y.index_select(0, index)], dim=-1)
        for i, layer in enumerate(self.layers):
            out = layer(h)
            if i < len(self.layers) - 1:
                out = torch.relu(out)
            h = out + h if out.shape == h.shape else out
        return h

    def forward(self, x, y, index, dim_size):
        h = self.node_scores(x, y, index)
        energy = torch.zeros(dim_size, h.size(1)).scatter_reduce(
            0, index.unsqueeze(-1).expand_as(h), h, reduce="mean", include_self=False)
        return energy.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    potential = ResNetPotential(in_channels=5, out_channels=3, hidden=[16, 16])
    x = torch.randn(9, 5)
    index = torch.tensor([0, 0, 0, 1, 1, 2, 2, 2, 2])
    y0 = torch.randn(3, 3)
    y1 = y0 + 1.0
    with torch.no_grad():
        e0 = potential(x, y0, index, 3)
        e1 = potential(x, y1, index, 3)
        h = potential.node_scores(x, y0, index)
    ref = 0.0
    for g in range(3):
        rows = [h[n] for n in range(x.size(0)) if index[n].item() == g]
        ref += (sum(rows) / len(rows)).sum().item()
    assert abs(e0.item() - ref) < 1e-5
    assert not torch.equal(e0, e1)
    print("ok")
