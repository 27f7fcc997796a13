import torch
import torch.nn as nn


def segment_softmax(scores, dst, num_nodes):
    """Softmax of edge scores over the incoming edges of every destination node.

    scores: [E, H] attention logits, dst: [E] destination node of each edge.
    """
    index = dst.unsqueeze(-1).expand_as(scores)  # [E, H]
    node_max = scores.new_full((num_nodes, scores.size(1)), float("-inf"))
    node_max = node_max.scatter_reduce(0, index, scores, reduce="amax", include_self=False)
    shifted = (scores - node_max.gather(0, index)).exp()  # [E, H]
    denom = scores.new_zeros(num_nodes, scores.size(1)).scatter_add_(0, index, shifted)
    return shifted / denom.gather(0, index).clamp_min(1e-16)


class GATLayer(nn.Module):
    def __init__(self, in_dim, out_dim, heads):
        super().__init__()
        self.heads, self.out_dim = heads, out_dim
        self.lin = nn.Linear(in_dim, heads * out_dim, bias=False)
        self.att_src = nn.Parameter(torch.randn(heads, out_dim))
        self.att_dst = nn.Parameter(torch.randn(heads, out_dim))

    def forward(self, x, edge_index):
        src, dst = edge_index  # [E], [E]
        num_nodes = x.size(0)
        h = self.lin(x).view(num_nodes, self.heads, self.out_dim)  # [N, H, C]
        alpha_src = (h * self.att_src).sum(-1)  # [N, H]
        alpha_dst = (h * self.att_dst).sum(-1)  # [N, H]
        logits = torch.nn.functional.leaky_relu(
            alpha_src.index_select(0, src) + alpha_dst.index_select(0, dst), 0.2
        )  # [E, H]
        alpha = segment_softmax(logits, dst, num_nodes)  # [E, H]
        messages = h.index_select(0, src) * alpha.unsqueeze(-1)  # [E, H, C]
        out = h.new_zeros(num_nodes, self.heads, self.out_dim)
        out.index_add_(0, dst, messages)
        return out, alpha


if __name__ == "__main__":
    torch.manual_seed(0)
    num_nodes, in_dim, out_dim, heads = 6, 5, 3, 2
    x = torch.randn(num_nodes, in_dim)
    edge_index = torch.tensor([[0, 1, 2, 3, 4, 5, 1, 2, 0], [1, 1, 1, 2, 2, 3, 4, 4, 0]])
    layer = GATLayer(in_dim, out_dim, heads)
    out, alpha = layer(x, edge_index)

    h = layer.lin(x).view(num_nodes, heads, out_dim)
    a_s = (h * layer.att_src).sum(-1)
    a_d = (h * layer.att_dst).sum(-1)
    src, dst = edge_index.tolist()
    for n in range(num_nodes):
        incoming = [e for e in range(len(src)) if dst[e] == n]
        for k in range(heads):
            ref = torch.zeros(out_dim)
            if incoming:
                e_logits = torch.stack(
                    [torch.nn.functional.leaky_relu(a_s[src[e], k] + a_d[n, k], 0.2) for e in incoming]
                )
                weights = torch.softmax(e_logits, dim=0)
                for w, e in zip(weights, incoming):
                    assert torch.allclose(alpha[e, k], w, atol=1e-6)
                    ref = ref + w * h[src[e], k]
            assert torch.allclose(out[n, k], ref, atol=1e-5), (n, k)
    print("ok")
