import torch
from jaxtyping import Float, Int
from torch import nn


def segment_softmax(
    src: Float[torch.Tensor, "edges"],
    index: Int[torch.Tensor, "edges"],
    num_nodes: int,
) -> Float[torch.Tensor, "edges"]:
    """Softmax of edge scores over the incoming edges of each target node."""
    node_max = torch.full((num_nodes,), float("-inf"), dtype=src.dtype)
    node_max = node_max.scatter_reduce(0, index, src, reduce="amax", include_self=True)
    out = src - node_max.index_select(0, index)
    out = out.exp()
    node_sum = torch.zeros(num_nodes, dtype=src.dtype).scatter_add_(0, index, out)
    return out / node_sum.index_select(0, index)


class EdgeAttention(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.att = nn.Linear(2 * dim, 1)

    def forward(
        self,
        x: Float[torch.Tensor, "nodes dim"],
        edge_index: Int[torch.Tensor, "2 edges"],
    ) -> Float[torch.Tensor, "nodes dim"]:
        src, dst = edge_index
        score = self.att(torch.cat([x[dst], x[src]], dim=-1)).squeeze(-1)
        alpha = segment_softmax(score, dst, x.size(0))
        out = torch.zeros_like(x)
        out.index_add_(0, dst, alpha.unsqueeze(-1) * x[src])
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(4, 8)
    edge_index = torch.tensor([[1, 2, 3, 0, 2, 0], [0, 0, 0, 1, 1, 2]])
    layer = EdgeAttention(8)
    with torch.no_grad():
        src, dst = edge_index
        score = layer.att(torch.cat([x[dst], x[src]], dim=-1)).squeeze(-1)
        alpha = segment_softmax(score, dst, 4)
        out = layer(x, edge_index)
        import math
        for e in range(score.numel()):
            group = [score[j].item() for j in range(score.numel()) if dst[j] == dst[e]]
            want = math.exp(score[e].item()) / sum(math.exp(v) for v in group)
            assert abs(alpha[e].item() - want) < 1e-5
        for v in range(4):
            acc = torch.zeros(8)
            for e in range(score.numel()):
                if dst[e].item() == v:
                    acc += alpha[e] * x[src[e]]
            assert torch.allclose(out[v], acc, atol=1e-5)
    print("ok")
