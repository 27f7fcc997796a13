import math

import torch
import torch.nn as nn


def edge_softmax(scores, dst, num_nodes):
    """Softmax of edge scores over the incoming edges of every node.

    Args:
        scores (Tensor): edge scores of shape (E, H).
        dst (LongTensor): destination node of every edge, shape (E,).
        num_nodes (int): number of nodes N.

    Returns:
        Tensor: normalised edge weights of shape (E, H).
    """
    index = dst.unsqueeze(1).expand_as(scores)
    node_max = torch.full((num_nodes, scores.shape[1]), float("-inf"))
    node_max = node_max.scatter_reduce(0, index, scores, reduce="amax", include_self=False)
    exp = (scores - node_max.gather(0, index)).exp()
    denom = torch.zeros(num_nodes, scores.shape[1]).scatter_add_(0, index, exp)
    return exp / denom.index_select(0, dst)


class GraphAttentionPool(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.att = nn.Linear(2 * dim, heads)
        self.val = nn.Linear(dim, heads * dim)

    def forward(self, x, src, dst):
        n, d = x.shape
        scores = self.att(torch.cat([x.index_select(0, src), x.index_select(0, dst)], dim=-1))
        alpha = edge_softmax(scores, dst, n)                          # (E, H)
        msg = self.val(x).view(n, self.heads, d).index_select(0, src)  # (E, H, D)
        out = torch.zeros(n, self.heads, d)
        out.index_put_((dst,), alpha.unsqueeze(-1) * msg, accumulate=True)
        return out.mean(1), alpha


if __name__ == "__main__":
    torch.manual_seed(0)
    src = torch.tensor([0, 1, 2, 3, 3, 4, 0, 2])
    dst = torch.tensor([1, 1, 1, 0, 2, 2, 4, 4])
    x = torch.randn(5, 4)
    layer = GraphAttentionPool(dim=4, heads=2)
    with torch.no_grad():
        out, alpha = layer(x, src, dst)
        scores = layer.att(torch.cat([x[src], x[dst]], dim=-1))
        vals = layer.val(x).view(5, 2, 4)
    for h in range(2):
        for node in range(5):
            edges = [e for e in range(8) if int(dst[e]) == node]
            if not edges:
                continue
            m = max(scores[e, h].item() for e in edges)
            z = sum(math.exp(scores[e, h].item() - m) for e in edges)
            for e in edges:
                assert abs(alpha[e, h].item() - math.exp(scores[e, h].item() - m) / z) < 1e-5
    for node in range(5):
        ref = torch.zeros(4)
        for e in range(8):
            if int(dst[e]) == node:
                for h in range(2):
                    ref += alpha[e, h] * vals[int(src[e]), h] / 2
        assert torch.allclose(out[node], ref, atol=1e-5), node
    print("ok")
