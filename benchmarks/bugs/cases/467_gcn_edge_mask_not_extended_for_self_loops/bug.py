import torch
from jaxtyping import Float, Int
from torch import Tensor, nn


def add_self_loops(edge_index: Int[Tensor, "2 E"], num_nodes: int) -> Int[Tensor, "2 E2"]:
    loops = torch.arange(num_nodes).unsqueeze(0).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


class MaskedGCNConv(nn.Module):
    """GCN layer whose edges can be re-weighted by a learned explanation mask."""

    def __init__(self, in_dim: int, out_dim: int):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)

    def forward(
        self,
        x: Float[Tensor, "N C"],
        edge_index: Int[Tensor, "2 E"],
        edge_mask: Float[Tensor, "E"],
    ) -> Float[Tensor, "N H"]:
        n = x.shape[0]
        edge_index = add_self_loops(edge_index, n)
        row, col = edge_index
        deg = torch.zeros(n, dtype=x.dtype).scatter_add_(0, row, edge_mask)
        norm = deg.pow(-0.5)[row] * edge_mask * deg.pow(-0.5)[col]
        h = self.lin(x)
        out = torch.zeros_like(h).index_add_(0, col, h[row] * norm.unsqueeze(1))
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(6, 8)
    edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 5, 0], [1, 0, 2, 1, 4, 3, 0, 5]])
    edge_mask = torch.sigmoid(torch.randn(edge_index.shape[1]))
    conv = MaskedGCNConv(8, 4)
    print("node embeddings:", tuple(conv(x, edge_index, edge_mask).shape))
