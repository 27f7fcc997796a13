import torch


def add_self_loops(edge_index, num_nodes):
    # edge_index: (2, E) -> (2, E + N)
    loops = torch.arange(num_nodes).unsqueeze(0).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


def gcn_norm(edge_index, num_nodes, edge_weight=None):
    # edge_weight: (E,) or None -> returns (2, E + N) edges and (E + N,) normalised weights
    if edge_weight is None:
        edge_weight = torch.ones(edge_index.size(1))        # (E,)
    edge_index = add_self_loops(edge_index, num_nodes)       # (2, E + N)
    row, col = edge_index
    deg = torch.zeros(num_nodes).scatter_add_(0, row, edge_weight)   # (N,)
    inv_sqrt = deg.pow(-0.5)
    return edge_index, inv_sqrt[row] * edge_weight * inv_sqrt[col]


def propagate(x, edge_index):
    # x: (N, C)
    n = x.size(0)
    edge_index, w = gcn_norm(edge_index, n)
    row, col = edge_index
    out = torch.zeros_like(x).index_add_(0, col, x[row] * w.unsqueeze(1))
    return out


if __name__ == "__main__":
    ei = torch.tensor([[0, 1, 1, 2, 3, 3], [1, 0, 2, 1, 0, 2]])
    x = torch.randn(4, 5)
    print(propagate(x, ei))
