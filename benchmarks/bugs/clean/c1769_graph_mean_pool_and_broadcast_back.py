import torch


def global_mean_pool(x, batch, num_graphs):
    """Average node features per graph.

    Args:
        x (Tensor): node features of shape (num_nodes, channels).
        batch (LongTensor): graph id of every node, shape (num_nodes,).
        num_graphs (int): number of graphs in the mini-batch.

    Returns:
        Tensor: pooled features of shape (num_graphs, channels).
    """
    channels = x.size(1)
    index = batch.unsqueeze(-1).expand(-1, channels)  # (num_nodes, channels)
    summed = x.new_zeros(num_graphs, channels).scatter_add_(0, index, x)
    counts = torch.bincount(batch, minlength=num_graphs).clamp(min=1).to(x.dtype)
    return summed / counts.unsqueeze(-1)


def graph_norm(x, batch, num_graphs, eps=1e-5):
    """Subtract each graph's mean and divide by its std, node-wise."""
    mean = global_mean_pool(x, batch, num_graphs)  # (num_graphs, channels)
    centered = x - mean.index_select(0, batch)  # (num_nodes, channels)
    var = global_mean_pool(centered * centered, batch, num_graphs)
    return centered / (var + eps).sqrt().index_select(0, batch)


def max_node_per_graph(scores, batch, num_graphs):
    """Index of the highest-scoring node inside every graph."""
    best = scores.new_full((num_graphs,), float("-inf"))
    best = best.scatter_reduce(0, batch, scores, reduce="amax", include_self=True)
    is_best = scores == best.gather(0, batch)
    node_ids = torch.arange(scores.numel())
    first = torch.full((num_graphs,), scores.numel(), dtype=torch.long)
    return first.scatter_reduce(0, batch[is_best], node_ids[is_best], reduce="amin", include_self=True)


if __name__ == "__main__":
    torch.manual_seed(0)
    sizes = [5, 3, 7, 4]
    batch = torch.repeat_interleave(torch.arange(len(sizes)), torch.tensor(sizes))
    x = torch.randn(int(batch.numel()), 6)
    scores = torch.randn(int(batch.numel()))

    pooled = global_mean_pool(x, batch, len(sizes))
    normed = graph_norm(x, batch, len(sizes))
    best = max_node_per_graph(scores, batch, len(sizes))

    start = 0
    for g, n in enumerate(sizes):
        rows = x[start : start + n]
        assert torch.allclose(pooled[g], rows.mean(dim=0), atol=1e-6)
        mu = rows.mean(dim=0)
        sd = ((rows - mu) ** 2).mean(dim=0).add(1e-5).sqrt()
        assert torch.allclose(normed[start : start + n], (rows - mu) / sd, atol=1e-5)
        local = max(range(n), key=lambda i: float(scores[start + i]))
        assert int(best[g]) == start + local
        start += n
    print("ok")
