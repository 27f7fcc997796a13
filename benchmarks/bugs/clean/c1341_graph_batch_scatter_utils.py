"""Scatter utilities for mini-batches of graphs (PyG-style, pure torch)."""
from typing import List, Optional, Tuple

import torch
from torch import Tensor


def scatter(src: Tensor, index: Tensor, dim: int = 0, dim_size: Optional[int] = None,
            reduce: str = "sum") -> Tensor:
    # src: [..., E, ...] with E along `dim`, index: [E]
    dim = dim + src.dim() if dim < 0 else dim
    if dim_size is None:
        dim_size = int(index.max()) + 1 if index.numel() > 0 else 0
    size = list(src.shape)
    size[dim] = dim_size
    view = [1] * src.dim()
    view[dim] = -1
    expanded = index.view(view).expand_as(src)
    out = src.new_zeros(size)
    if reduce == "sum":
        return out.scatter_add_(dim, expanded, src)
    return out.scatter_reduce_(dim, expanded, src, reduce=reduce, include_self=False)


def group_cat(tensors: List[Tensor], indices: List[Tensor], dim: int = 0) -> Tuple[Tensor, Tensor]:
    # tensors[i]: entries along `dim`, indices[i]: [tensors[i].size(dim)]
    index, perm = torch.cat(indices).sort(stable=True)
    out = torch.cat(tensors, dim=dim).index_select(dim, perm)
    return out, index


def spmm(edge_index: Tensor, edge_weight: Tensor, num_rows: int, other: Tensor) -> Tensor:
    # edge_index: [2, E] (row in [0, num_rows), col in [0, other.size(0))), other: [num_cols, F]
    row, col = edge_index
    msg = other.index_select(0, col) * edge_weight.unsqueeze(-1)  # [E, F]
    return scatter(msg, row, dim=0, dim_size=num_rows, reduce="sum")  # [num_rows, F]


def segment_softmax(score: Tensor, index: Tensor, num_segments: int) -> Tensor:
    # score: [E], index: [E] -> softmax over the entries of every segment
    seg_max = scatter(score, index, dim=0, dim_size=num_segments, reduce="amax")  # [S]
    exp = (score - seg_max.index_select(0, index)).exp()  # [E]
    denom = scatter(exp, index, dim=0, dim_size=num_segments, reduce="sum")  # [S]
    return exp / denom.index_select(0, index)


def global_attention_pool(x: Tensor, gate: Tensor, batch: Tensor, num_graphs: int) -> Tensor:
    # x: [N, F], gate: [N], batch: [N] -> [num_graphs, F]
    alpha = segment_softmax(gate, batch, num_graphs)  # [N]
    return scatter(alpha.unsqueeze(-1) * x, batch, dim=0, dim_size=num_graphs)


def global_mean_pool(x: Tensor, batch: Tensor, num_graphs: int) -> Tensor:
    # x: [N, F], batch: [N] -> [num_graphs, F]; empty graphs stay zero
    return scatter(x, batch, dim=0, dim_size=num_graphs, reduce="mean")


if __name__ == "__main__":
    torch.manual_seed(0)
    num_nodes, feat, num_graphs = 8, 3, 3
    x = torch.randn(num_nodes, feat)
    batch = torch.tensor([0, 0, 0, 1, 1, 1, 1, 2])
    gate = torch.randn(num_nodes)

    pooled = global_attention_pool(x, gate, batch, num_graphs)
    mean = global_mean_pool(x, batch, num_graphs + 1)
    for g in range(num_graphs):
        members = [n for n in range(num_nodes) if batch[n].item() == g]
        w = torch.tensor([gate[n].item() for n in members]).softmax(0)
        ref = sum(w[i] * x[n] for i, n in enumerate(members))
        assert torch.allclose(pooled[g], ref, atol=1e-6)
        assert torch.allclose(mean[g], sum(x[n] for n in members) / len(members), atol=1e-6)
    assert torch.equal(mean[num_graphs], torch.zeros(feat))

    # rectangular adjacency: 5 users x 3 items
    edge_index = torch.tensor([[0, 1, 1, 3, 4, 4], [2, 0, 1, 1, 0, 2]])
    edge_weight = torch.rand(edge_index.size(1))
    items = torch.randn(3, feat)
    users = spmm(edge_index, edge_weight, num_rows=5, other=items)
    ref_users = torch.zeros(5, feat)
    for e in range(edge_index.size(1)):
        ref_users[edge_index[0, e]] += edge_weight[e] * items[edge_index[1, e]]
    assert torch.allclose(users, ref_users, atol=1e-6)

    # channels-first point features grouped by sample
    a, b = torch.randn(feat, 4), torch.randn(feat, 2)
    ia, ib = torch.tensor([1, 0, 1, 0]), torch.tensor([0, 1])
    merged, idx = group_cat([a, b], [ia, ib], dim=1)
    cols = [a[:, j] for j in range(4) if ia[j] == 0] + [b[:, j] for j in range(2) if ib[j] == 0]
    cols += [a[:, j] for j in range(4) if ia[j] == 1] + [b[:, j] for j in range(2) if ib[j] == 1]
    assert torch.equal(merged, torch.stack(cols, dim=1))
    assert idx.tolist() == [0, 0, 0, 1, 1, 1]
    print("ok")
