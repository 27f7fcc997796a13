import torch


def add_self_loops(edge_index, num_nodes):
    # edge_index: [2, E] -> [2, E + num_nodes]
    loop = torch.arange(num_nodes)
    return torch.cat([edge_index, torch.stack([loop, loop])], dim=1)


def gcn_norm(edge_index, edge_weight, x):
    # x: [N, F], edge_index: [2, E], edge_weight: [E]
    num_nodes = x.size(0)
    edge_index = add_self_loops(edge_index, num_nodes=num_nodes)
    edge_weight = torch.cat([edge_weight, torch.ones(num_nodes)])   # [E + N]
    row, col = edge_index
    deg = torch.zeros(num_nodes)                                     # [N]
    deg.scatter_add_(0, col, edge_weight)
    dinv = deg.pow(-0.5)
    return edge_index, dinv[row] * edge_weight * dinv[col]


def gcn_layer(x, edge_index, edge_weight, weight):
    edge_index, norm = gcn_norm(edge_index, edge_weight, x)
    h = x @ weight                                                   # [N, H]
    out = torch.zeros_like(h)
    out.index_add_(0, edge_index[1], h[edge_index[0]] * norm.unsqueeze(-1))
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    edge_index = torch.tensor([[0, 1, 1, 2, 2, 3, 3, 0], [1, 0, 2, 1, 3, 2, 0, 3]])
    x = torch.randn(4, 3)
    w = torch.randn(3, 2)
    out = gcn_layer(x, edge_index, torch.ones(edge_index.size(1)), w)
    N = 4
    edges = list(zip(edge_index[0].tolist(), edge_index[1].tolist())) + [(i, i) for i in range(N)]
    deg = [sum(1.0 for s_, d_ in edges if d_ == i) for i in range(N)]
    h = x @ w
    for i in range(N):
        acc = torch.zeros(2)
        for s_, d_ in edges:
            if d_ == i:
                acc += h[s_] / (deg[s_] ** 0.5 * deg[d_] ** 0.5)
        assert torch.allclose(out[i], acc, atol=1e-5)
    print("ok")
