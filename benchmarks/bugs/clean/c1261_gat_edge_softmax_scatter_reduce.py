import torch
import torch.nn as nn
import torch.nn.functional as F


def edge_softmax(scores, dst, num_nodes):
    """Softmax of edge scores over the incoming edges of each destination node.

    Args:
        scores: (E, H) unnormalized attention logits, one per edge and head.
        dst: (E,) destination node of every edge.
        num_nodes: N.

    Returns:
        (E, H) attention weights; for every node and head they sum to 1 over its incoming edges.
    """
    index = dst.unsqueeze(1).expand_as(scores)  # (E, H)
    node_max = torch.full((num_nodes, scores.size(1)), float("-inf"))
    node_max = node_max.scatter_reduce(0, index, scores, reduce="amax", include_self=False)  # (N, H)
    exp = (scores - node_max.gather(0, index)).exp()  # (E, H)
    denom = torch.zeros(num_nodes, scores.size(1)).scatter_add_(0, index, exp)  # (N, H)
    return exp / denom.gather(0, index)


class GATLayer(nn.Module):
    """Multi-head graph attention layer.

    Args:
        in_dim: F, input feature size.
        out_dim: C, output size per head.
        heads: H.
    """

    def __init__(self, in_dim, out_dim, heads):
        super().__init__()
        self.heads, self.out_dim = heads, out_dim
        self.proj = nn.Linear(in_dim, heads * out_dim, bias=False)
        self.att_src = nn.Parameter(torch.randn(heads, out_dim) * 0.1)
        self.att_dst = nn.Parameter(torch.randn(heads, out_dim) * 0.1)

    def forward(self, x, edge_index):
        """
        Args:
            x: (N, F) node features.
            edge_index: (2, E) long tensor of (src, dst) pairs; every node has at least one incoming edge.

        Returns:
            (N, H * C) updated node features.
        """
        src, dst = edge_index
        n = x.size(0)
        h = self.proj(x).view(n, self.heads, self.out_dim)  # (N, H, C)
        a_src = (h * self.att_src).sum(-1)  # (N, H)
        a_dst = (h * self.att_dst).sum(-1)  # (N, H)
        scores = F.leaky_relu(a_src.index_select(0, src) + a_dst.index_select(0, dst), 0.2)  # (E, H)
        alpha = edge_softmax(scores, dst, n)  # (E, H)
        messages = h.index_select(0, src) * alpha.unsqueeze(-1)  # (E, H, C)
        out = torch.zeros(n, self.heads, self.out_dim).index_add_(0, dst, messages)  # (N, H, C)
        return out.reshape(n, self.heads * self.out_dim)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = GATLayer(in_dim=5, out_dim=3, heads=2)
    x = torch.randn(5, 5)
    # self loops plus a few directed edges; node 4 has three incoming edges
    src = torch.tensor([0, 1, 2, 3, 4, 0, 1, 2, 3, 4])
    dst = torch.tensor([0, 1, 2, 3, 4, 4, 4, 0, 1, 2])
    edge_index = torch.stack([src, dst])
    with torch.no_grad():
        out = layer(x, edge_index)
        h = layer.proj(x).view(5, 2, 3)
        for v in range(5):
            for k in range(2):
                incoming = [e for e in range(len(src)) if int(dst[e]) == v]
                logits = []
                for e in incoming:
                    u = int(src[e])
                    s = float((h[u, k] * layer.att_src[k]).sum() + (h[v, k] * layer.att_dst[k]).sum())
                    logits.append(s if s > 0 else 0.2 * s)
                w = torch.softmax(torch.tensor(logits), dim=0)
                ref = sum(float(w[i]) * h[int(src[e]), k] for i, e in enumerate(incoming))
                assert torch.allclose(out[v, k * 3 : (k + 1) * 3], ref, atol=1e-5), (v, k)
    print("ok")
