import torch
from jaxtyping import Float, Int
from torch import Tensor, nn


def batched_dense_to_sparse(
    adj: Float[Tensor, "B N N"],
) -> tuple[Int[Tensor, "2 E"], Float[Tensor, " E"]]:
    """Turn a batch of dense adjacency matrices into one block-diagonal edge list."""
    b, n, _ = adj.shape
    flat = adj.reshape(b * n, n)
    edge_index = flat.nonzero().t()
    edge_attr = flat[edge_index[0], edge_index[1]]
    offset = torch.arange(0, b * n, n, device=adj.device).repeat_interleave(n)
    edge_index[1] += offset[edge_index[0]]
    return edge_index, edge_attr


class SoftAssignAdjacency(nn.Module):
    """Learned soft adjacency over the nodes of each graph, returned as weighted sparse edges."""

    def __init__(self, channels: int):
        super().__init__()
        self.query = nn.Linear(channels, channels)

    def forward(
        self, x: Float[Tensor, "B N C"]
    ) -> tuple[Int[Tensor, "2 E"], Float[Tensor, " E"]]:
        q = self.query(x)
        adj = torch.sigmoid(q @ x.transpose(1, 2))
        adj = adj * (adj > 0.5)
        return batched_dense_to_sparse(adj)


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(3, 6, 8)
    layer = SoftAssignAdjacency(8)
    edge_index, edge_attr = layer(x)
    loss = edge_attr.square().sum()
    loss.backward()
    print("grad norm:", layer.query.weight.grad.norm().item())
