import torch
import torch.nn as nn

CONFIG = {"num_nodes": 7, "num_edges": 18, "in_dim": 5, "hidden_dim": 4, "layers": 2}


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, edge_index):
        h = self.lin(x)
        src, dst = edge_index
        deg = torch.zeros(x.size(0)).scatter_add_(0, dst, torch.ones_like(dst, dtype=h.dtype)) + 1
        norm = (deg[src] * deg[dst]).rsqrt()
        messages = h.gather(0, src.unsqueeze(1)) * norm.unsqueeze(1)
        out = torch.zeros_like(h).scatter_add_(0, dst.unsqueeze(1).expand_as(messages), messages)
        return torch.relu(out + h / deg.unsqueeze(1))


class GCN(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        dims = [cfg["in_dim"]] + [cfg["hidden_dim"]] * cfg["layers"]
        self.layers = nn.ModuleList([GCNLayer(a, b) for a, b in zip(dims[:-1], dims[1:])])

    def forward(self, x, edge_index):
        for layer in self.layers:
            x = layer(x, edge_index)
        return x


def random_graph(cfg, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(cfg["num_nodes"], cfg["in_dim"], generator=g)
    edge_index = torch.randint(0, cfg["num_nodes"], (2, cfg["num_edges"]), generator=g)
    return x, edge_index


if __name__ == "__main__":
    torch.manual_seed(0)
    model = GCN(CONFIG)
    x, edge_index = random_graph(CONFIG)
    print("node embeddings:", model(x, edge_index))
