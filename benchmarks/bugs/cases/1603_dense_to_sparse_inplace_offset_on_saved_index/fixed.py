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
    edge_index = torch.stack([edge_index[0], edge_index[1] + offset[edge_index[0]]])
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
    grad = layer.query.weight.grad.clone()

    with torch.no_grad():
        adj = torch.sigmoid(layer.query(x) @ x.transpose(1, 2))
    b, n, _ = adj.shape
    ref_edges, ref_attr = [], []
    for g in range(b):
        for i in range(n):
            for j in range(n):
                v = adj[g, i, j].item()
                if v > 0.5:
                    ref_edges.append((g * n + i, g * n + j))
                    ref_attr.append(v)
    assert [tuple(e) for e in edge_index.t().tolist()] == ref_edges
    assert torch.allclose(edge_attr.detach(), torch.tensor(ref_attr))

    layer.zero_grad()
    dense = torch.sigmoid(layer.query(x) @ x.transpose(1, 2))
    (dense.square() * (dense > 0.5)).sum().backward()
    assert torch.allclose(grad, layer.query.weight.grad, atol=1e-6)
    print("ok")
