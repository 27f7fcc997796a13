import torch


def scatter_mean(src, index, dim_size):
    # src: [num_nodes, F], index: [num_nodes] graph id of each node
    index_f = index.unsqueeze(-1).expand_as(src)
    total = src.new_zeros(dim_size, src.size(-1)).scatter_add_(0, index_f, src)
    count = src.new_zeros(dim_size).scatter_add_(0, index, torch.ones_like(index, dtype=src.dtype))
    return total / count.clamp(min=1).unsqueeze(-1)


def scatter_max(src, index, dim_size):
    index_f = index.unsqueeze(-1).expand_as(src)
    out = src.new_full((dim_size, src.size(-1)), float("-inf"))
    return out.scatter_reduce(0, index_f, src, reduce="amax", include_self=False)


def topk_readout(x, batch, num_graphs, k, score_weight):
    # x: [num_nodes, F]; keep the k best-scoring nodes of each graph (graphs padded to max size)
    scores = x @ score_weight  # [num_nodes]
    counts = torch.bincount(batch, minlength=num_graphs)
    max_nodes = int(counts.max())
    offsets = torch.cumsum(counts, 0) - counts  # [num_graphs]
    slot = torch.arange(x.size(0)) - offsets[batch]  # position of each node inside its graph
    dense_scores = x.new_full((num_graphs, max_nodes), float("-inf"))
    dense_scores[batch, slot] = scores
    dense_x = x.new_zeros(num_graphs, max_nodes, x.size(-1))
    dense_x[batch, slot] = x
    top_idx = dense_scores.topk(k, dim=1).indices  # [num_graphs, k]
    picked = dense_x.gather(1, top_idx.unsqueeze(-1).expand(-1, -1, x.size(-1)))  # [num_graphs, k, F]
    return picked.flatten(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    nodes_per_graph = [5, 3, 7, 4]
    num_graphs, feat, k = len(nodes_per_graph), 6, 3
    batch = torch.cat([torch.full((n,), g) for g, n in enumerate(nodes_per_graph)])
    x = torch.randn(len(batch), feat)
    w = torch.randn(feat)

    mean = scatter_mean(x, batch, num_graphs)
    mx = scatter_max(x, batch, num_graphs)
    top = topk_readout(x, batch, num_graphs, k, w)

    start = 0
    for g, n in enumerate(nodes_per_graph):
        rows = [x[start + i] for i in range(n)]
        ref_mean = sum(rows) / n
        ref_max = torch.stack(rows).max(dim=0).values
        order = sorted(range(n), key=lambda i: -(rows[i] @ w).item())[:k]
        ref_top = torch.cat([rows[i] for i in order])
        assert torch.allclose(mean[g], ref_mean, atol=1e-6)
        assert torch.allclose(mx[g], ref_max)
        assert torch.allclose(top[g], ref_top)
        start += n
    print("ok")
