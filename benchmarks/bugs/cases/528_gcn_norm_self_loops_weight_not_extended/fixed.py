import torch
import torch.nn as nn

SETTINGS = {"num_nodes": 6, "in_dim": 5, "out_dim": 3, "self_loop_weight": 2.0}


def add_self_loops(edge_index, num_nodes):
    loops = torch.arange(num_nodes, device=edge_index.device).unsqueeze(0).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


def gcn_norm(edge_index, edge_weight, num_nodes, loop_weight):
    edge_index = add_self_loops(edge_index, num_nodes)
    loop_weight = edge_weight.new_full((num_nodes,), loop_weight)
    edge_weight = torch.cat([edge_weight, loop_weight])
    row, col = edge_index
    deg = edge_weight.new_zeros(num_nodes).scatter_add_(0, row, edge_weight)
    inv_sqrt = deg.pow(-0.5).masked_fill(deg == 0, 0.0)
    return edge_index, inv_sqrt[row] * edge_weight * inv_sqrt[col]


class WeightedGCNLayer(nn.Module):
    def __init__(self, settings):
        super().__init__()
        self.settings = settings
        self.lin = nn.Linear(settings["in_dim"], settings["out_dim"], bias=False)

    def forward(self, x, edge_index, edge_weight):
        edge_index, norm = gcn_norm(edge_index, edge_weight, x.shape[0], self.settings["self_loop_weight"])
        h = self.lin(x)
        out = torch.zeros_like(h)
        return out.index_add_(0, edge_index[1], norm.unsqueeze(1) * h[edge_index[0]])


def load_graph(settings, seed=0):
    g = torch.Generator().manual_seed(seed)
    edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 4, 5], [1, 0, 2, 1, 4, 3, 5, 4]])
    edge_weight = torch.rand(edge_index.shape[1], generator=g) + 0.5
    x = torch.randn(settings["num_nodes"], settings["in_dim"], generator=g)
    return x, edge_index, edge_weight


if __name__ == "__main__":
    torch.manual_seed(0)
    x, edge_index, edge_weight = load_graph(SETTINGS)
    layer = WeightedGCNLayer(SETTINGS)
    with torch.no_grad():
        out = layer(x, edge_index, edge_weight)
        n = SETTINGS["num_nodes"]
        edges = [(int(s), int(d), float(w)) for s, d, w in zip(edge_index[0], edge_index[1], edge_weight)]
        edges += [(i, i, SETTINGS["self_loop_weight"]) for i in range(n)]
        deg = [0.0] * n
        for s, d, w in edges:
            deg[s] += w
        h = layer.lin(x)
        ref = torch.zeros_like(h)
        for s, d, w in edges:
            ref[d] += w / (deg[s] ** 0.5 * deg[d] ** 0.5) * h[s]
        assert torch.allclose(out, ref, atol=1e-5)
    print("ok")
