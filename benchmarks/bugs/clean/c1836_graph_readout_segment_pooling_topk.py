import torch


def segment_mean(x, batch, num_graphs):
    # x: [N, F] node features, batch: [N] graph id of every node
    out = x.new_zeros(num_graphs, x.size(1))
    out.index_add_(0, batch, x)
    count = torch.bincount(batch, minlength=num_graphs).clamp(min=1)
    return out / count.unsqueeze(1).to(x.dtype)


def segment_max(x, batch, num_graphs):
    # x: [N, F], batch: [N] -> [G, F]
    index = batch.unsqueeze(1).expand_as(x)
    out = x.new_full((num_graphs, x.size(1)), float("-inf"))
    return out.scatter_reduce(0, index, x, reduce="amax", include_self=True)


def topk_nodes_per_graph(score, x, batch, num_graphs, k):
    # score: [N], x: [N, F]; graphs are padded to a dense [G, max_nodes] layout first
    counts = torch.bincount(batch, minlength=num_graphs)
    max_nodes = int(counts.max())
    offsets = torch.cumsum(counts, 0) - counts
    pos = torch.arange(batch.numel()) - offsets[batch]
    dense_score = score.new_full((num_graphs, max_nodes), float("-inf"))
    dense_score[batch, pos] = score
    dense_x = x.new_zeros(num_graphs, max_nodes, x.size(1))
    dense_x[batch, pos] = x
    top_idx = dense_score.topk(k, dim=1).indices  # [G, k]
    gathered = dense_x.gather(1, top_idx.unsqueeze(-1).expand(-1, -1, x.size(1)))  # [G, k, F]
    return gathered, top_idx


if __name__ == "__main__":
    torch.manual_seed(0)
    sizes = [5, 3, 7, 4]
    num_graphs, feat, k = len(sizes), 6, 3
    batch = torch.cat([torch.full((n,), g) for g, n in enumerate(sizes)])
    x = torch.randn(batch.numel(), feat)
    score = torch.randn(batch.numel())

    mean = segment_mean(x, batch, num_graphs)
    mx = segment_max(x, batch, num_graphs)
    top_x, top_idx = topk_nodes_per_graph(score, x, batch, num_graphs, k)

    start = 0
    for g, n in enumerate(sizes):
        nodes = x[start:start + n]
        assert torch.allclose(mean[g], nodes.mean(0), atol=1e-6)
        assert torch.allclose(mx[g], nodes.max(0).values)
        order = sorted(range(n), key=lambda i: -score[start + i].item())[:k]
        for j, i in enumerate(order):
            assert top_idx[g, j].item() == i
            assert torch.equal(top_x[g, j], nodes[i])
        start += n
    print("ok")
