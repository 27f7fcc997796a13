import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def add_self_loops(edge_index: Int[Tensor, "2 e"], num_nodes: int) -> Int[Tensor, "2 e_loop"]:
    loops = torch.arange(num_nodes).unsqueeze(0).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


def gcn_norm(
    edge_index: Int[Tensor, "2 e"], edge_weight: Float[Tensor, "e"], num_nodes: int
) -> tuple[Int[Tensor, "2 e_loop"], Float[Tensor, "e_loop"]]:
    edge_index = add_self_loops(edge_index, num_nodes)
    row, col = edge_index
    deg = torch.zeros(num_nodes).scatter_add_(0, col, edge_weight)
    dinv = deg.pow(-0.5).masked_fill(deg == 0, 0.0)
    return edge_index, dinv[row] * edge_weight * dinv[col]


class WeightedGCNLayer(nn.Module):
    def __init__(self, c_in: int, c_out: int):
        super().__init__()
        self.lin = nn.Linear(c_in, c_out, bias=False)

    def forward(self, x: Float[Tensor, "n c_in"], edge_index: Int[Tensor, "2 e"],
                edge_weight: Float[Tensor, "e"]) -> Float[Tensor, "n c_out"]:
        edge_index, norm = gcn_norm(edge_index, edge_weight, x.size(0))
        h = self.lin(x)
        msg = h[edge_index[0]] * norm.unsqueeze(1)
        return torch.zeros_like(h).index_add_(0, edge_index[1], msg)


if __name__ == "__main__":
    torch.manual_seed(0)
    ei = torch.tensor([[0, 1, 1, 2, 3, 4], [1, 0, 2, 1, 4, 3]])
    w = torch.rand(6) + 0.5
    out = WeightedGCNLayer(3, 2)(torch.randn(5, 3), ei, w)
    print(out)
