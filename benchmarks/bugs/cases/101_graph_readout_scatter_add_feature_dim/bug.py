import torch
import torch.nn as nn


class SumReadout(nn.Module):
    """Graph-level readout: sums the node embeddings of every graph in a mini-batch."""

    def __init__(self, hidden_dim, num_targets):
        super().__init__()
        self.node_mlp = nn.Sequential(nn.Linear(hidden_dim, hidden_dim), nn.ReLU())
        self.head = nn.Linear(hidden_dim, num_targets)

    def forward(self, node_feats, graph_ids, num_graphs):
        # node_feats: [num_nodes, hidden_dim]
        # graph_ids:  [num_nodes], graph of every node (0 .. num_graphs - 1)
        h = self.node_mlp(node_feats)  # [num_nodes, hidden_dim]
        index = graph_ids.unsqueeze(-1).expand_as(h)  # [num_nodes, hidden_dim]
        pooled = h.new_zeros(num_graphs, h.size(1))  # [num_graphs, hidden_dim]
        pooled.scatter_add_(1, index, h)
        return self.head(pooled), pooled  # [num_graphs, num_targets]


def collate(graph_sizes, hidden_dim):
    feats = torch.randn(sum(graph_sizes), hidden_dim)
    ids = torch.cat([torch.full((n,), g, dtype=torch.long) for g, n in enumerate(graph_sizes)])
    return feats, ids


if __name__ == "__main__":
    torch.manual_seed(0)
    sizes = [4, 5, 3]
    readout = SumReadout(hidden_dim=8, num_targets=2)
    feats, ids = collate(sizes, hidden_dim=8)
    preds, pooled = readout(feats, ids, num_graphs=len(sizes))
    h = readout.node_mlp(feats)
    ref = torch.stack([h[ids == g].sum(0) for g in range(len(sizes))])
    print("pooled matches per-graph sums:", torch.allclose(pooled, ref, atol=1e-6))
