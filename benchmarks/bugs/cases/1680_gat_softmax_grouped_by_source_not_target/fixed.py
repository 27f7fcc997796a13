import torch
import torch.nn as nn
import torch.nn.functional as F


def segment_softmax(src, index, num_nodes):
    # src: [E, H] edge scores, index: [E] group id of each edge
    idx = index.unsqueeze(-1).expand_as(src)
    src_max = torch.full((num_nodes, src.size(1)), float("-inf")).scatter_reduce(
        0, idx, src, reduce="amax", include_self=True)
    out = (src - src_max[index]).exp()
    denom = torch.zeros(num_nodes, src.size(1)).index_add_(0, index, out)  # [N, H]
    return out / (denom[index] + 1e-16)


def add_self_loops(edge_index, num_nodes):
    loop = torch.arange(num_nodes).unsqueeze(0).repeat(2, 1)  # [2, N]
    return torch.cat([edge_index, loop], dim=1)


class GATConv(nn.Module):
    def __init__(self, in_channels, out_channels, heads=2, negative_slope=0.2):
        super().__init__()
        self.heads, self.out_channels, self.negative_slope = heads, out_channels, negative_slope
        self.lin = nn.Linear(in_channels, heads * out_channels, bias=False)
        self.att_src = nn.Parameter(torch.randn(1, heads, out_channels) * 0.3)
        self.att_dst = nn.Parameter(torch.randn(1, heads, out_channels) * 0.3)

    def forward(self, x, edge_index, return_attention=False):
        # x: [N, F_in]   edge_index: [2, E], messages flow edge_index[0] -> edge_index[1]
        num_nodes = x.size(0)
        edge_index = add_self_loops(edge_index, num_nodes)
        src, dst = edge_index
        h = self.lin(x).view(-1, self.heads, self.out_channels)  # [N, H, C]
        alpha = (h[src] * self.att_src).sum(-1) + (h[dst] * self.att_dst).sum(-1)  # [E, H]
        alpha = F.leaky_relu(alpha, self.negative_slope)
        alpha = segment_softmax(alpha, dst, num_nodes)  # [E, H], normalised per target
        out = torch.zeros(num_nodes, self.heads, self.out_channels).index_add_(
            0, dst, h[src] * alpha.unsqueeze(-1))  # [N, H, C]
        out = out.mean(dim=1)  # [N, C]
        return (out, (edge_index, alpha)) if return_attention else out


def reference_gat(conv, x, edge_index):
    import math
    n = x.size(0)
    ei = add_self_loops(edge_index, n)
    h = conv.lin(x).view(-1, conv.heads, conv.out_channels)
    out = torch.zeros(n, conv.heads, conv.out_channels)
    for i in range(n):
        edges = [e for e in range(ei.size(1)) if int(ei[1, e]) == i]
        for k in range(conv.heads):
            scores = []
            for e in edges:
                j = int(ei[0, e])
                s = float((h[j, k] * conv.att_src[0, k]).sum() + (h[i, k] * conv.att_dst[0, k]).sum())
                scores.append(s if s > 0 else s * conv.negative_slope)
            m = max(scores)
            w = [math.exp(s - m) for s in scores]
            z = sum(w)
            for e, wi in zip(edges, w):
                out[i, k] += h[int(ei[0, e]), k] * (wi / z)
    return out.mean(dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(6, 5)
    edge_index = torch.tensor([[0, 1, 2, 3, 4, 5, 0, 2, 4],
                               [1, 2, 3, 4, 5, 0, 3, 5, 1]])
    conv = GATConv(5, 4, heads=2)
    with torch.no_grad():
        out, (ei, alpha) = conv(x, edge_index, return_attention=True)
        ref = reference_gat(conv, x, edge_index)
    incoming = torch.zeros(6, 2).index_add_(0, ei[1], alpha)
    assert torch.allclose(incoming, torch.ones(6, 2), atol=1e-5)
    assert torch.allclose(out, ref, atol=1e-5)
    print("ok")
