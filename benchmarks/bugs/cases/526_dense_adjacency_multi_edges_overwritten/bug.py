import torch


def to_dense_adj(edge_index, edge_weight, num_nodes):
    """Build a dense weighted adjacency matrix.

    Args:
        edge_index (LongTensor): shape (2, E), source and target node of every edge.
        edge_weight (FloatTensor): shape (E,), weight of every edge.
        num_nodes (int): N.

    Returns:
        FloatTensor of shape (N, N) with adj[i, j] = total weight of the edges i -> j.
    """
    adj = edge_weight.new_zeros(num_nodes, num_nodes)
    adj.index_put_((edge_index[0], edge_index[1]), edge_weight)
    return adj


def diffusion_edges(edge_index, num_nodes, alpha=0.5):
    """Add self loops and two-hop shortcuts, as a graph-diffusion preprocessing step.

    Returns:
        (edge_index of shape (2, E'), edge_weight of shape (E',)), not coalesced.
    """
    loops = torch.arange(num_nodes).repeat(2, 1)
    src, dst = edge_index
    hop2 = [(int(a), int(d)) for a, b in zip(src, dst) for c, d in zip(src, dst) if int(b) == int(c)]
    hop2 = torch.tensor(hop2, dtype=torch.long).t()
    full = torch.cat([edge_index, loops, hop2], dim=1)
    weight = torch.cat([torch.ones(edge_index.shape[1]), torch.ones(num_nodes),
                        torch.full((hop2.shape[1],), alpha)])
    return full, weight


if __name__ == "__main__":
    edge_index = torch.tensor([[0, 1, 1, 2, 2, 3, 0, 2],
                               [1, 0, 2, 1, 3, 2, 2, 0]])
    ei, w = diffusion_edges(edge_index, num_nodes=4)
    adj = to_dense_adj(ei, w, num_nodes=4)
    print("total edge weight:", w.sum().item(), "sum of adjacency:", adj.sum().item())
    print(adj)
