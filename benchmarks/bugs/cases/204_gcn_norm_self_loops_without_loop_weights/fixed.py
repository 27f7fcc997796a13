import torch
import torch.nn as nn


def add_self_loops(edge_index, num_nodes):
    loops = torch.arange(num_nodes).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


def gcn_norm(edge_index, edge_weight, num_nodes):
    edge_index, edge_weight = add_self_loops(edge_index, num_nodes), torch.cat([edge_weight, edge_weight.new_ones(num_nodes)])
    row, col = edge_index
    deg = torch.zeros(num_nodes).scatter_add_(0, col, edge_weight)
    deg_inv_sqrt = deg.pow(-0.5)
    deg_inv_sqrt[deg_inv_sqrt == float("inf")] = 0
    return edge_index, deg_inv_sqrt[row] * edge_weight * deg_inv_sqrt[col]


class WeightedGCNConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels, bias=False)

    def forward(self, x, edge_index, edge_weight):
        edge_index, norm = gcn_norm(edge_index, edge_weight, x.size(0))
        h = self.lin(x)
        row, col = edge_index
        out = torch.zeros_like(h)
        return out.index_add_(0, col, norm.unsqueeze(-1) * h[row])


class GCNEncoder(nn.Module):
    def __init__(self, in_channels, hidden, out_channels):
        super().__init__()
        self.conv1 = WeightedGCNConv(in_channels, hidden)
        self.conv2 = WeightedGCNConv(hidden, out_channels)

    def forward(self, x, edge_index, edge_weight):
        return self.conv2(torch.relu(self.conv1(x, edge_index, edge_weight)), edge_index, edge_weight)


def load_graph(spec):
    src = torch.tensor([e[0] for e in spec["edges"]])
    dst = torch.tensor([e[1] for e in spec["edges"]])
    edge_index = torch.stack([torch.cat([src, dst]), torch.cat([dst, src])])
    edge_weight = torch.tensor(spec["weights"] * 2, dtype=torch.float)
    return torch.randn(spec["num_nodes"], spec["features"]), edge_index, edge_weight


if __name__ == "__main__":
    torch.manual_seed(0)
    spec = {"num_nodes": 5, "features": 3, "edges": [(0, 1), (1, 2), (2, 3), (3, 4)], "weights": [1.0, 0.5, 2.0, 1.5]}
    x, edge_index, edge_weight = load_graph(spec)
    model = GCNEncoder(3, 8, 2)
    z = model(x, edge_index, edge_weight)
    n = spec["num_nodes"]
    adj = torch.eye(n)
    for (a, b), w in zip(spec["edges"], spec["weights"]):
        adj[a, b] += w
        adj[b, a] += w
    deg = adj.sum(0)
    a_hat = torch.tensor([[adj[i, j].item() / (deg[i] * deg[j]).sqrt().item() for j in range(n)] for i in range(n)])
    with torch.no_grad():
        h1 = torch.relu(a_hat.t() @ model.conv1.lin(x))
        ref = a_hat.t() @ model.conv2.lin(h1)
        assert torch.allclose(z, ref, atol=1e-5)
    print("ok")
