import torch
from torch import nn

CFG = {"num_nodes": 6, "in_dim": 4, "out_dim": 3, "seed": 0}


class AddCentralNode:
    """Pre-transform: appends a virtual node (mean of all features) linked to every node."""

    def __call__(self, data):
        x, edge_index = data["x"], data["edge_index"]
        n = x.size(0)
        data["x"] = torch.cat([x, x.mean(0, keepdim=True)])
        spokes = torch.stack([torch.arange(n), torch.full((n,), n)])
        data["edge_index"] = torch.cat([edge_index, spokes, spokes.flip(0)], dim=1)
        return data


def gcn_norm(edge_index, edge_weight, num_nodes):
    row, col = edge_index
    deg = torch.zeros(num_nodes).scatter_add_(0, col, edge_weight)
    dinv = deg.pow(-0.5).masked_fill(deg == 0, 0.0)
    return dinv[row] * edge_weight * dinv[col]


class GCNLayer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.lin = nn.Linear(cfg["in_dim"], cfg["out_dim"])

    def forward(self, data):
        edge_index = data["edge_index"]
        norm = gcn_norm(edge_index, data["edge_weight"], data["x"].size(0))
        h = self.lin(data["x"])
        msg = h[edge_index[0]] * norm.unsqueeze(-1)
        return torch.zeros_like(h).index_add_(0, edge_index[1], msg)


def load_ring(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    n = cfg["num_nodes"]
    src = torch.arange(n)
    edge_index = torch.stack([src, (src + 1) % n])
    return {"x": torch.randn(n, cfg["in_dim"], generator=g), "edge_index": edge_index,
            "edge_weight": torch.rand(n, generator=g) + 0.5}


if __name__ == "__main__":
    torch.manual_seed(CFG["seed"])
    data = AddCentralNode()(load_ring(CFG))
    layer = GCNLayer(CFG)
    print(layer(data))
