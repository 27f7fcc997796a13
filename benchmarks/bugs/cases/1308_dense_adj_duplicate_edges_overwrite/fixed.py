import torch


def to_dense_adj(edge_index, batch=None, edge_attr=None, max_num_nodes=None):
    r"""Converts batched sparse adjacency matrices given by edge indices and
    edge attributes to a single dense batched adjacency matrix.

    Args:
        edge_index (LongTensor): The edge indices of shape :obj:`[2, num_edges]`.
        batch (LongTensor, optional): Batch vector of shape :obj:`[num_nodes]`,
            which assigns each node to a specific example.
        edge_attr (Tensor, optional): Edge weights of shape :obj:`[num_edges]`.
        max_num_nodes (int, optional): The size of the output node dimension.

    Returns:
        Tensor of shape :obj:`[batch_size, max_num_nodes, max_num_nodes]`.
    """
    if batch is None:
        batch = edge_index.new_zeros(edge_index.max().item() + 1)
    if edge_attr is None:
        edge_attr = torch.ones(edge_index.size(1), device=edge_index.device)

    batch_size = batch.max().item() + 1
    num_nodes = torch.zeros(batch_size, dtype=torch.long).scatter_add_(
        0, batch, torch.ones_like(batch))
    cum_nodes = torch.cat([batch.new_zeros(1), num_nodes.cumsum(dim=0)])
    if max_num_nodes is None:
        max_num_nodes = num_nodes.max().item()

    adj = torch.zeros(batch_size, max_num_nodes, max_num_nodes, dtype=edge_attr.dtype)
    idx0 = batch[edge_index[0]]
    idx1 = edge_index[0] - cum_nodes[batch][edge_index[0]]
    idx2 = edge_index[1] - cum_nodes[batch][edge_index[1]]
    adj.index_put_((idx0, idx1, idx2), edge_attr, accumulate=True)
    return adj


if __name__ == '__main__':
    # a multigraph batch: node 0 has two self-loops, edge 3 -> 4 appears twice
    edge_index = torch.tensor([[0, 0, 0, 1, 2, 3, 3, 4],
                               [0, 0, 1, 0, 3, 4, 4, 2]])
    batch = torch.tensor([0, 0, 1, 1, 1])
    edge_attr = torch.tensor([1., 2., 3., 4., 5., 6., 7., 8.])
    adj = to_dense_adj(edge_index, batch, edge_attr)
    start = [0, 2]  # first node of each graph
    ref = [[[0.0] * 3 for _ in range(3)] for _ in range(2)]
    for e in range(edge_index.size(1)):
        src_node, dst_node = edge_index[0, e].item(), edge_index[1, e].item()
        g = batch[src_node].item()
        ref[g][src_node - start[g]][dst_node - start[g]] += edge_attr[e].item()
    assert adj.tolist() == ref, (adj.tolist(), ref)
    assert adj.sum().item() == edge_attr.sum().item()
    print('ok')
