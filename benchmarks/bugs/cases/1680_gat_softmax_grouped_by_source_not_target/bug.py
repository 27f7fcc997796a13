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
        alpha = segment_softmax(alpha, src, num_nodes)  # [E, H]
        out = torch.zeros(num_nodes, self.heads, self.out_channels).index_add_(
            0, dst, h[src] * alpha.unsqueeze(-1))  # [N, H, C]
        out = out.mean(dim=1)  # [N, C]
        return (out, (edge_index, alpha)) if return_attention else out


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(6, 5)
    edge_index = torch.tensor([[0, 1, 2, 3, 4, 5, 0, 2, 4],
                               [1, 2, 3, 4, 5, 0, 3, 5, 1]])
    conv = GATConv(5, 4, heads=2)
    out, (ei, alpha) = conv(x, edge_index, return_attention=True)
    incoming = torch.zeros(6, 2).index_add_(0, ei[1], alpha)
    print("attention mass arriving at each target node (should be 1):")
    print(incoming.round(decimals=3).tolist())
