import torch


def scatter_mean(src, index, dim_size):
    """Mean of the rows of src grouped by index.

    Args:
        src: (num_items, channels) features.
        index: (num_items,) group id of every row, in [0, dim_size).
        dim_size: number of groups.

    Returns:
        (dim_size, channels) per-group mean; empty groups are zero.
    """
    out = src.new_zeros(dim_size, src.shape[1])
    out.scatter_add_(0, index.unsqueeze(1).expand(-1, src.shape[1]), src)
    count = torch.bincount(index, minlength=dim_size).clamp(min=1).to(src.dtype)
    return out / count.unsqueeze(1)


def message_passing(x, edge_index):
    # x: [N, C], edge_index: [2, E] (source row, target row)
    src, dst = edge_index
    messages = x.index_select(0, src)                      # [E, C]
    return scatter_mean(messages, dst, x.shape[0])         # [N, C]


def rerank_topk(scores, candidate_ids, k):
    # scores: [B, M], candidate_ids: [B, M]
    top = scores.topk(k, dim=1)                            # values/indices: [B, k]
    ids = torch.take_along_dim(candidate_ids, top.indices, dim=1)
    return top.values, ids


if __name__ == "__main__":
    torch.manual_seed(0)
    num_nodes, channels, num_edges = 7, 5, 20
    x = torch.randn(num_nodes, channels)
    edge_index = torch.randint(0, num_nodes, (2, num_edges))
    agg = message_passing(x, edge_index)

    ref = torch.zeros(num_nodes, channels)
    deg = [0] * num_nodes
    for e in range(num_edges):
        s, d = int(edge_index[0, e]), int(edge_index[1, e])
        ref[d] += x[s]
        deg[d] += 1
    for n in range(num_nodes):
        if deg[n]:
            ref[n] /= deg[n]
    assert torch.allclose(agg, ref, atol=1e-6)

    scores = torch.randn(3, 9)
    candidate_ids = torch.randint(0, 1000, (3, 9))
    vals, ids = rerank_topk(scores, candidate_ids, k=4)
    for b in range(3):
        order = sorted(range(9), key=lambda j: -float(scores[b, j]))[:4]
        assert ids[b].tolist() == [int(candidate_ids[b, j]) for j in order]
        assert torch.allclose(vals[b], torch.stack([scores[b, j] for j in order]))
    print("ok")
