import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def add_self_loops(edge_index: Int[Tensor, "2 num_edges"], num_nodes: int) -> Int[Tensor, "2 num_edges_with_loops"]:
    loops = torch.arange(num_nodes).unsqueeze(0).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


def gcn_norm(edge_index: Int[Tensor, "2 num_edges"], num_nodes: int) -> Float[Tensor, " num_edges"]:
    row, col = edge_index
    edge_weight = torch.ones(edge_index.size(1))
    deg: Float[Tensor, " num_nodes"] = torch.zeros(num_nodes)
    deg[col] += edge_weight
    deg_inv_sqrt = deg.pow(-0.5)
    deg_inv_sqrt[deg_inv_sqrt == float("inf")] = 0
    return deg_inv_sqrt[row] * edge_weight * deg_inv_sqrt[col]


class GCNConv(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels, bias=False)

    def forward(self, x: Float[Tensor, "num_nodes in_channels"], edge_index: Int[Tensor, "2 num_edges"]) -> Float[Tensor, "num_nodes out_channels"]:
        num_nodes = x.size(0)
        edge_index = add_self_loops(edge_index, num_nodes)
        norm = gcn_norm(edge_index, num_nodes)
        h = self.lin(x)
        row, col = edge_index
        out = torch.zeros_like(h)
        out.index_add_(0, col, h[row] * norm.unsqueeze(-1))
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    edge_index = torch.tensor([[0, 1, 1, 2, 2, 3, 3, 4, 0, 2],
                               [1, 0, 2, 1, 3, 2, 4, 3, 2, 0]])
    conv = GCNConv(3, 4)
    x = torch.randn(5, 3)
    with torch.no_grad():
        out = conv(x, edge_index)
        norm = gcn_norm(add_self_loops(edge_index, 5), 5)
    true_deg = torch.bincount(add_self_loops(edge_index, 5)[1], minlength=5).float()
    print("self-loop norms 1/deg:", [round(v, 4) for v in norm[-5:].tolist()])
    print("expected 1/deg:", [round(v, 4) for v in (1 / true_deg).tolist()])
    print("output norm:", round(out.norm().item(), 4))
