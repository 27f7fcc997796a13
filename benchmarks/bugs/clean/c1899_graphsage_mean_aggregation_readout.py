import torch
import torch.nn as nn


def mean_aggregate(x, edge_index, num_nodes):
    """Average the features of each node's in-neighbours.

    x: [num_nodes, C] node features
    edge_index: [2, E], row 0 source, row 1 destination
    returns: [num_nodes, C]; nodes without in-edges get zeros
    """
    src, dst = edge_index[0], edge_index[1]
    messages = x.index_select(0, src)                                  # [E, C]
    out = x.new_zeros(num_nodes, x.size(1))                            # [num_nodes, C]
    out.scatter_add_(0, dst.unsqueeze(1).expand(-1, x.size(1)), messages)
    deg = torch.bincount(dst, minlength=num_nodes).clamp(min=1)        # [num_nodes]
    return out / deg.unsqueeze(1).to(x.dtype)


class SAGELayer(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin_self = nn.Linear(in_channels, out_channels)
        self.lin_neigh = nn.Linear(in_channels, out_channels, bias=False)

    def forward(self, x, edge_index):
        neigh = mean_aggregate(x, edge_index, x.size(0))
        return torch.relu(self.lin_self(x) + self.lin_neigh(neigh))


def graph_sum_readout(h, batch, num_graphs):
    """h: [num_nodes, C]; batch: [num_nodes] graph id of every node -> [num_graphs, C]."""
    out = h.new_zeros(num_graphs, h.size(1))
    return out.index_add_(0, batch, h)


if __name__ == "__main__":
    torch.manual_seed(0)
    # two graphs in one batch: nodes 0-4 and 5-8, node 4 has no in-edge, graph 2 is empty
    edge_index = torch.tensor([
        [0, 1, 2, 3, 1, 5, 6, 7, 8, 6],
        [1, 2, 3, 0, 0, 6, 7, 8, 5, 5],
    ])
    batch = torch.tensor([0, 0, 0, 0, 0, 1, 1, 1, 1])
    x = torch.randn(9, 6)
    layer = SAGELayer(6, 8)

    with torch.no_grad():
        neigh = mean_aggregate(x, edge_index, 9)
        h = layer(x, edge_index)
        pooled = graph_sum_readout(h, batch, num_graphs=3)

    for v in range(9):
        srcs = [s for s, d in edge_index.t().tolist() if d == v]
        ref = torch.stack([x[s] for s in srcs]).mean(0) if srcs else torch.zeros(6)
        assert torch.allclose(neigh[v], ref, atol=1e-6)
    for g in range(3):
        members = [v for v in range(9) if batch[v].item() == g]
        ref = torch.stack([h[v] for v in members]).sum(0) if members else torch.zeros(8)
        assert torch.allclose(pooled[g], ref, atol=1e-5)
    print("ok")
