import torch


def degree(index, num_nodes):
    """Number of occurrences of every node id.

    Args:
        index (LongTensor): (E,) node ids.
        num_nodes (int): N.

    Returns:
        LongTensor: (N,) counts.
    """
    return torch.zeros(num_nodes, dtype=torch.long).scatter_add_(0, index, torch.ones_like(index))


def lift_order_edge_index(edge_index, num_nodes):
    """Edges of the second-order (line) graph: one pair (e1, e2) for every path u -e1-> v -e2-> w.

    Args:
        edge_index (LongTensor): (2, E) first-order edges.
        num_nodes (int): number of first-order nodes N.

    Returns:
        LongTensor: (2, E2) ids of consecutive first-order edges.
    """
    num_edges = edge_index.shape[1]
    outdegree = degree(edge_index[0], num_nodes)  # (N,)
    outdegree_per_dst = outdegree[edge_index[1]]  # (E,) continuations of every edge
    num_new_edges = int(outdegree_per_dst.sum())
    src_edge = torch.arange(num_edges).repeat_interleave(outdegree_per_dst)  # (E2,)
    order = torch.argsort(edge_index[0], stable=True)  # edges grouped by source node
    first_out = outdegree.cumsum(0) - outdegree  # (N,) offset of each node's first outgoing edge
    local = torch.arange(num_new_edges) - (outdegree_per_dst.cumsum(0) - outdegree_per_dst).repeat_interleave(outdegree_per_dst)
    dst_edge = order[first_out[edge_index[1][src_edge]] + local]
    return torch.stack([src_edge, dst_edge])


if __name__ == "__main__":
    graph = {"edge_index": torch.tensor([[0, 1, 1, 3], [1, 2, 3, 4]]), "num_nodes": 6}
    edge_index = graph["edge_index"]
    lifted = lift_order_edge_index(edge_index, graph["num_nodes"])
    edges = edge_index.t().tolist()
    ref = sorted((i, j) for i, (u, v) in enumerate(edges) for j, (s, w) in enumerate(edges) if s == v)
    assert sorted(map(tuple, lifted.t().tolist())) == ref
    other = torch.tensor([[0, 0, 1, 2, 2, 3], [1, 2, 2, 0, 3, 0]])
    lifted_other = lift_order_edge_index(other, 4)
    edges = other.t().tolist()
    ref = sorted((i, j) for i, (u, v) in enumerate(edges) for j, (s, w) in enumerate(edges) if s == v)
    assert sorted(map(tuple, lifted_other.t().tolist())) == ref
    print("second-order edges:", lifted.t().tolist())
    print("ok")
