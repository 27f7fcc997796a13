import torch
from jaxtyping import Float, Int
from torch import Tensor


def segment_softmax(
    scores: Float[Tensor, "edges heads"],
    dst: Int[Tensor, "edges"],
    num_nodes: int,
) -> Float[Tensor, "edges heads"]:
    """Softmax of attention scores over the incoming edges of each destination node."""
    heads = scores.shape[1]
    index = dst.unsqueeze(-1).expand(-1, heads)
    node_max = torch.full((num_nodes, heads), float("-inf")).scatter_reduce(
        0, index, scores, reduce="amax", include_self=False
    )
    shifted = (scores - node_max.gather(0, index)).exp()
    denom = torch.zeros(num_nodes, heads).scatter_add_(0, index, shifted)
    return shifted / denom.gather(0, index)


def aggregate(
    x: Float[Tensor, "nodes heads dim"],
    src: Int[Tensor, "edges"],
    dst: Int[Tensor, "edges"],
    alpha: Float[Tensor, "edges heads"],
) -> Float[Tensor, "nodes heads dim"]:
    messages = x.index_select(0, src) * alpha.unsqueeze(-1)
    return torch.zeros_like(x).index_add_(0, dst, messages)


if __name__ == "__main__":
    torch.manual_seed(0)
    num_nodes, heads, dim = 5, 2, 3
    src = torch.tensor([0, 1, 2, 3, 4, 0, 2, 2, 1])
    dst = torch.tensor([1, 1, 1, 0, 0, 3, 3, 4, 4])
    scores = torch.randn(len(src), heads)
    x = torch.randn(num_nodes, heads, dim)
    alpha = segment_softmax(scores, dst, num_nodes)
    out = aggregate(x, src, dst, alpha)

    for v in range(num_nodes):
        edges = [e for e in range(len(dst)) if int(dst[e]) == v]
        ref = torch.zeros(heads, dim)
        if edges:
            for h in range(heads):
                w = torch.softmax(torch.stack([scores[e, h] for e in edges]), dim=0)
                for k, e in enumerate(edges):
                    assert torch.allclose(alpha[e, h], w[k], atol=1e-6)
                    ref[h] += w[k] * x[int(src[e]), h]
        assert torch.allclose(out[v], ref, atol=1e-5)
    print("ok")
