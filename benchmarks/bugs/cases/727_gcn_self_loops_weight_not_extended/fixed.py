import torch
import torch.nn as nn


def add_self_loops(edge_index, num_nodes):
    loops = torch.arange(num_nodes).unsqueeze(0).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


class WeightedGCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)

    def forward(self, x, edge_index, edge_weight):
        n = x.size(0)
        edge_index = add_self_loops(edge_index, n)
        edge_weight = torch.cat([edge_weight, edge_weight.new_ones(n)])
        row, col = edge_index
        deg = torch.zeros(n).scatter_add_(0, col, edge_weight)
        norm = deg.pow(-0.5)[row] * edge_weight * deg.pow(-0.5)[col]
        h = self.lin(x)
        out = torch.zeros_like(h)
        out.index_add_(0, col, h[row] * norm.unsqueeze(1))
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(5, 8)
    edge_index = torch.tensor([[0, 1, 1, 2, 3, 4], [1, 0, 2, 1, 4, 3]])
    edge_weight = torch.rand(6) + 0.5
    layer = WeightedGCNLayer(8, 4)
    out = layer(x, edge_index, edge_weight)
    edges = list(zip(edge_index[0].tolist(), edge_index[1].tolist(), edge_weight.tolist()))
    edges += [(i, i, 1.0) for i in range(5)]
    deg = [0.0] * 5
    for r, c, w in edges:
        deg[c] += w
    h = layer.lin(x)
    ref = torch.zeros(5, 4)
    for r, c, w in edges:
        ref[c] += h[r] * (w / (deg[r] ** 0.5 * deg[c] ** 0.5))
    assert torch.allclose(out, ref, atol=1e-5)
    print("ok")
