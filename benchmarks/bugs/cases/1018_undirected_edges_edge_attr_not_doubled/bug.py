import torch
import torch.nn as nn


def to_undirected(edge_index):
    # edge_index: [2, E] -> [2, 2E] with every edge also stored reversed
    row, col = edge_index
    return torch.stack([torch.cat([row, col]), torch.cat([col, row])], dim=0)


class EdgeConditionedConv(nn.Module):
    def __init__(self, in_dim, edge_dim, out_dim):
        super().__init__()
        self.node_lin = nn.Linear(in_dim, out_dim)
        self.edge_lin = nn.Linear(edge_dim, out_dim)

    def forward(self, x, edge_index, edge_attr):
        # x: [N, F]   edge_index: [2, E']   edge_attr: [E', De]
        dst = edge_index[1]
        bond_msg = self.edge_lin(edge_attr)                                # [E', H]
        agg = torch.zeros(x.size(0), bond_msg.size(1))                     # [N, H]
        agg.scatter_add_(0, dst.unsqueeze(-1).expand(-1, bond_msg.size(1)), bond_msg)
        return torch.relu(self.node_lin(x) + agg)


class BondGraph:
    def __init__(self, x, edge_index, edge_attr):
        self.x = x                    # [N, F] atom features
        self.edge_index = edge_index  # [2, E] bonds, stored once
        self.edge_attr = edge_attr    # [E, De] bond features


def preprocess(graph):
    graph.edge_index = to_undirected(graph.edge_index)  # [2, 2E]
    return graph


if __name__ == "__main__":
    torch.manual_seed(0)
    graph = BondGraph(
        x=torch.randn(5, 6),                                   # [5, 6]
        edge_index=torch.tensor([[0, 1, 2, 3], [1, 2, 3, 4]]),  # [2, 4]
        edge_attr=torch.randn(4, 3),                            # [4, 3]
    )
    graph = preprocess(graph)
    conv = EdgeConditionedConv(in_dim=6, edge_dim=3, out_dim=8)
    h = conv(graph.x, graph.edge_index, graph.edge_attr)
    print("node states:", tuple(h.shape))
