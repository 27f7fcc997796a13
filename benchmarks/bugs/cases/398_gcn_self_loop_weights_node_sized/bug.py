import torch
import torch.nn as nn


def add_remaining_self_loops(edge_index, edge_weight, fill_value, num_nodes):
    row, col = edge_index
    mask = row != col
    inv_mask = ~mask
    loop_weight = torch.full((num_nodes,), fill_value, dtype=edge_weight.dtype)
    loop_weight[row[inv_mask]] = edge_weight[inv_mask]
    loop_index = torch.arange(num_nodes).unsqueeze(0).repeat(2, 1)
    edge_index = torch.cat([edge_index[:, mask], loop_index], dim=1)
    edge_weight = torch.cat([edge_weight[mask], loop_weight], dim=0)
    return edge_index, edge_weight


class GCNLayer(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels, bias=False)

    def forward(self, x, edge_index, edge_weight=None):
        num_nodes = x.size(0)
        if edge_weight is None:
            edge_weight = x.new_ones(num_nodes)
        edge_index, edge_weight = add_remaining_self_loops(edge_index, edge_weight, 1.0, num_nodes)
        row, col = edge_index
        deg = x.new_zeros(num_nodes).scatter_add_(0, col, edge_weight)
        norm = deg[row].rsqrt() * edge_weight * deg[col].rsqrt()
        h = self.lin(x)
        out = torch.zeros_like(h).index_add_(0, col, h[row] * norm.unsqueeze(-1))
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(6, 8)
    edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 5, 2, 0], [1, 0, 2, 1, 4, 3, 2, 2, 5]])
    layer = GCNLayer(8, 4)
    print(layer(x, edge_index).shape)
