import torch
import torch.nn as nn
import torch.nn.functional as F


class SAGEConv(nn.Module):
    """GraphSAGE layer with mean aggregation over incoming neighbours."""

    def __init__(self, in_channels, out_channels, normalize=True):
        super().__init__()
        self.normalize = normalize
        self.lin_neigh = nn.Linear(in_channels, out_channels, bias=False)
        self.lin_root = nn.Linear(in_channels, out_channels)

    def aggregate(self, x, edge_index):
        # x: [N, C], edge_index: [2, E] holding (target, source) pairs
        row, col = edge_index  # row: [E] receiving node, col: [E] sending node
        num_nodes = x.size(0)
        summed = x.new_zeros(num_nodes, x.size(1)).index_add_(0, row, x[col])  # [N, C]
        deg = x.new_zeros(num_nodes).index_add_(0, row, x.new_ones(row.numel()))  # [N]
        return summed / deg.clamp(min=1).unsqueeze(-1)  # [N, C]

    def forward(self, x, edge_index):
        out = self.lin_neigh(self.aggregate(x, edge_index)) + self.lin_root(x)  # [N, out]
        if self.normalize:
            out = F.normalize(out, p=2.0, dim=-1)
        return out


def ring_with_chords(num_nodes):
    src = torch.arange(num_nodes)
    dst = (src + 1) % num_nodes
    chords_src = torch.arange(0, num_nodes, 3)
    chords_dst = (chords_src + num_nodes // 2) % num_nodes
    row = torch.cat([dst, src, chords_dst])
    col = torch.cat([src, dst, chords_src])
    return torch.stack([row, col])  # [2, E]


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(12, 16)  # [N, C]
    edge_index = ring_with_chords(12)
    conv = SAGEConv(16, 8)
    agg = conv.aggregate(x, edge_index)

    ref = torch.zeros(12, 16)
    for n in range(12):
        neigh = [edge_index[1, e].item() for e in range(edge_index.size(1)) if edge_index[0, e] == n]
        ref[n] = torch.stack([x[j] for j in neigh]).mean(0)
    assert torch.allclose(agg, ref, atol=1e-6)
    out = conv(x, edge_index)
    assert out.shape == (12, 8)
    print("ok")
