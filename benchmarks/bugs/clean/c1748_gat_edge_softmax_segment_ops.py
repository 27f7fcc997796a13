import torch
import torch.nn as nn
import torch.nn.functional as F


def segment_softmax(scores, index, num_nodes):
    """Softmax of edge scores grouped by target node.

    Args:
        scores: (E, H) raw attention logits, one column per head.
        index: (E,) target node of every edge, values in [0, num_nodes).
        num_nodes: number of nodes N.

    Returns:
        (E, H) attention weights that sum to one over the incoming edges of each node.
    """
    heads = scores.size(1)
    idx = index.unsqueeze(1).expand(-1, heads)
    node_max = scores.new_full((num_nodes, heads), float("-inf"))
    node_max = node_max.scatter_reduce(0, idx, scores, reduce="amax", include_self=True)
    exp = (scores - node_max.gather(0, idx)).exp()
    denom = exp.new_zeros(num_nodes, heads).index_add_(0, index, exp)
    return exp / denom.gather(0, idx)


class GATLayer(nn.Module):
    def __init__(self, in_dim, out_dim, heads):
        super().__init__()
        self.heads, self.out_dim = heads, out_dim
        self.lin = nn.Linear(in_dim, heads * out_dim, bias=False)
        self.att_src = nn.Parameter(torch.randn(heads, out_dim) * 0.1)
        self.att_dst = nn.Parameter(torch.randn(heads, out_dim) * 0.1)

    def forward(self, x, edge_index):
        src, dst = edge_index
        h = self.lin(x).view(-1, self.heads, self.out_dim)            # (N, H, D)
        alpha_src = (h * self.att_src).sum(-1)                         # (N, H)
        alpha_dst = (h * self.att_dst).sum(-1)                         # (N, H)
        scores = F.leaky_relu(alpha_src[src] + alpha_dst[dst], 0.2)    # (E, H)
        attn = segment_softmax(scores, dst, x.size(0))                 # (E, H)
        msg = h[src] * attn.unsqueeze(-1)                              # (E, H, D)
        out = h.new_zeros(h.shape).index_add_(0, dst, msg)             # (N, H, D)
        return out.flatten(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = GATLayer(in_dim=5, out_dim=3, heads=2)
    x = torch.randn(6, 5)
    edge_index = torch.tensor([[0, 1, 2, 3, 4, 5, 0, 2, 5, 1],
                               [1, 1, 1, 0, 0, 2, 4, 4, 4, 3]])
    with torch.no_grad():
        out = layer(x, edge_index)
        h = layer.lin(x).view(6, 2, 3)
        ref = torch.zeros(6, 2, 3)
        for i in range(6):
            incoming = [j for j, t in zip(edge_index[0].tolist(), edge_index[1].tolist()) if t == i]
            for k in range(2):
                if not incoming:
                    continue
                logits = torch.stack([
                    F.leaky_relu((h[j, k] * layer.att_src[k]).sum() + (h[i, k] * layer.att_dst[k]).sum(), 0.2)
                    for j in incoming
                ])
                w = logits.softmax(0)
                ref[i, k] = sum(w[n] * h[j, k] for n, j in enumerate(incoming))
    assert torch.allclose(out, ref.flatten(1), atol=1e-6)
    print("ok")
