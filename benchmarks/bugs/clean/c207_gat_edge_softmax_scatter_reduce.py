import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


def edge_softmax(
    scores: Float[Tensor, "edges heads"], dst: Int[Tensor, "edges"], num_nodes: int
) -> Float[Tensor, "edges heads"]:
    """Softmax of the edge scores over the incoming edges of each destination node."""
    index = dst.unsqueeze(-1).expand_as(scores)
    node_max = scores.new_full((num_nodes, scores.size(1)), float("-inf"))
    node_max = node_max.scatter_reduce(0, index, scores, reduce="amax", include_self=True)
    exp = (scores - node_max.gather(0, index)).exp()
    denom = torch.zeros(num_nodes, scores.size(1)).scatter_add_(0, index, exp)
    return exp / denom.gather(0, index)


class GATLayer(nn.Module):
    def __init__(self, in_dim: int, out_dim: int, heads: int):
        super().__init__()
        self.heads, self.out_dim = heads, out_dim
        self.lin = nn.Linear(in_dim, heads * out_dim, bias=False)
        self.att_src = nn.Parameter(torch.randn(heads, out_dim) * 0.3)
        self.att_dst = nn.Parameter(torch.randn(heads, out_dim) * 0.3)

    def forward(
        self, x: Float[Tensor, "nodes in_dim"], edge_index: Int[Tensor, "2 edges"]
    ) -> Float[Tensor, "nodes heads out_dim"]:
        src, dst = edge_index
        h = self.lin(x).view(-1, self.heads, self.out_dim)
        alpha_src = (h * self.att_src).sum(-1)
        alpha_dst = (h * self.att_dst).sum(-1)
        scores = F.leaky_relu(alpha_src.index_select(0, src) + alpha_dst.index_select(0, dst), 0.2)
        alpha = edge_softmax(scores, dst, x.size(0))
        messages = h.index_select(0, src) * alpha.unsqueeze(-1)
        out = torch.zeros_like(h)
        out.index_add_(0, dst, messages)
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    num_nodes = 5
    edges = [(0, 1), (2, 1), (3, 1), (1, 0), (4, 0), (0, 2), (1, 3), (2, 4), (3, 4), (4, 4)]
    edge_index = torch.tensor(edges, dtype=torch.long).t()
    x = torch.randn(num_nodes, 4)
    layer = GATLayer(4, 3, heads=2)
    with torch.no_grad():
        out = layer(x, edge_index)
        h = layer.lin(x).view(num_nodes, 2, 3)
        for v in range(num_nodes):
            incoming = [s for s, d in edges if d == v]
            for k in range(2):
                if not incoming:
                    assert torch.all(out[v, k] == 0)
                    continue
                e = torch.stack([F.leaky_relu(h[s, k] @ layer.att_src[k] + h[v, k] @ layer.att_dst[k], 0.2)
                                 for s in incoming])
                w = torch.softmax(e, dim=0)
                ref = sum(w[i] * h[s, k] for i, s in enumerate(incoming))
                assert torch.allclose(out[v, k], ref, atol=1e-5)
    print("ok")
