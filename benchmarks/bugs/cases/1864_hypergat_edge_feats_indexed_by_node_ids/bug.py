import torch
import torch.nn as nn
import torch.nn.functional as F


def segment_softmax(scores, group, num_groups):
    """Softmax of scores within each group.

    Args:
        scores (Tensor): (nnz,) one score per incidence pair.
        group (Tensor): (nnz,) group id of every pair, in [0, num_groups).
        num_groups (int): number of groups.

    Returns:
        Tensor: (nnz,) normalised weights; every group sums to 1.
    """
    group_max = torch.full((num_groups,), float("-inf")).scatter_reduce(0, group, scores, reduce="amax", include_self=True)
    exp = (scores - group_max[group]).exp()
    denom = torch.zeros(num_groups).index_add_(0, group, exp)
    return exp / denom[group]


class HyperGATLayer(nn.Module):
    """Hypergraph attention layer: nodes -> hyperedges -> nodes (Ding et al., 2020).

    Args:
        in_channels (int): size of the node features.
        hidden_channels (int): size of the output features.
    """

    def __init__(self, in_channels, hidden_channels):
        super().__init__()
        self.lin_node = nn.Linear(in_channels, hidden_channels, bias=False)
        self.lin_edge = nn.Linear(hidden_channels, hidden_channels, bias=False)
        self.att_node = nn.Parameter(torch.randn(hidden_channels) * 0.1)
        self.att_edge = nn.Parameter(torch.randn(2 * hidden_channels) * 0.1)

    def forward(self, x, incidence, num_edges):
        """
        Args:
            x (Tensor): (num_nodes, in_channels) node features.
            incidence (Tensor): (2, nnz) pairs (node index, hyperedge index) of the incidence matrix.
            num_edges (int): number of hyperedges.

        Returns:
            Tensor: (num_nodes, hidden_channels) updated node features.
            Tensor: (num_edges, hidden_channels) hyperedge features.
        """
        node_idx, edge_idx = incidence
        h = self.lin_node(x)
        # intra-edge aggregation used to score the members of every hyperedge
        edge_sum = torch.zeros(num_edges, h.size(1)).index_add_(0, edge_idx, h[node_idx])
        # node-level attention: one score per (node, hyperedge) pair, normalised inside each hyperedge
        pair_edge = edge_sum[node_idx]
        alpha = segment_softmax(F.leaky_relu(pair_edge) @ self.att_node, edge_idx, num_edges)
        edge_feat = F.elu(torch.zeros(num_edges, h.size(1)).index_add_(0, edge_idx, alpha.unsqueeze(1) * h[node_idx]))
        # edge-level attention: every node weighs the hyperedges it belongs to
        m = self.lin_edge(edge_feat)
        pair = torch.cat([m[edge_idx], h[node_idx]], dim=1)
        beta = segment_softmax(F.leaky_relu(pair) @ self.att_edge, node_idx, x.size(0))
        out = torch.zeros_like(h).index_add_(0, node_idx, beta.unsqueeze(1) * m[edge_idx])
        return F.elu(out), edge_feat


def build_incidence(hyperedges):
    """
    Args:
        hyperedges (list[list[int]]): member nodes of every hyperedge.

    Returns:
        Tensor: (2, nnz) long tensor of (node index, hyperedge index) pairs.
    """
    pairs = [(v, e) for e, members in enumerate(hyperedges) for v in members]
    return torch.tensor(pairs, dtype=torch.long).t().contiguous()


if __name__ == "__main__":
    torch.manual_seed(0)
    hyperedges = [[0, 1, 2], [2, 3], [3, 4, 5, 6], [6, 7, 8], [0, 8]]
    incidence = build_incidence(hyperedges)
    x = torch.randn(9, 12)
    layer = HyperGATLayer(12, 8)
    with torch.no_grad():
        node_out, edge_out = layer(x, incidence, num_edges=len(hyperedges))
    print(node_out.shape, edge_out.shape)
