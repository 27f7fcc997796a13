import torch
import torch.nn as nn


def to_weighted_adjacency(edge_index, edge_weight, num_nodes):
    src, dst = edge_index
    flat = torch.zeros(num_nodes * num_nodes, dtype=edge_weight.dtype)
    flat.scatter_(0, src * num_nodes + dst, edge_weight)
    return flat.view(num_nodes, num_nodes)


class WeightedGraphConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, edge_index, edge_weight):
        adj = to_weighted_adjacency(edge_index, edge_weight, x.shape[0])
        deg = adj.sum(dim=0).clamp(min=1.0)
        agg = (adj.T @ x) / deg.unsqueeze(-1)
        return self.lin(agg)


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(5, 8)
    # user -> item interactions; repeated purchases appear as parallel edges
    edge_index = torch.tensor([[0, 0, 0, 1, 2, 2, 3, 4, 4],
                               [1, 1, 2, 2, 3, 3, 4, 0, 0]])
    edge_weight = torch.tensor([1.0, 2.0, 1.0, 0.5, 1.5, 1.5, 1.0, 3.0, 1.0])
    adj = to_weighted_adjacency(edge_index, edge_weight, 5)
    print("total edge weight:", edge_weight.sum().item(), "in adjacency:", adj.sum().item())
    conv = WeightedGraphConv(8, 4)
    print(conv(x, edge_index, edge_weight))
