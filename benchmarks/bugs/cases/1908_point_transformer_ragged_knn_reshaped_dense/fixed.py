from typing import NamedTuple

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class KnnSearchResult(NamedTuple):
    neighbors_index: Int[Tensor, "total"]
    neighbors_row_splits: Int[Tensor, "m_plus_1"]


def knn_search(points: Float[Tensor, "n 3"], queries: Float[Tensor, "m 3"], k: int,
               points_row_splits: Int[Tensor, "b_plus_1"],
               queries_row_splits: Int[Tensor, "b_plus_1"]) -> KnnSearchResult:
    # returns fewer than k neighbours for a query whose cloud has fewer than k points
    neighbors, splits = [], [0]
    for b in range(points_row_splits.numel() - 1):
        p0, p1 = int(points_row_splits[b]), int(points_row_splits[b + 1])
        q0, q1 = int(queries_row_splits[b]), int(queries_row_splits[b + 1])
        dist = torch.cdist(queries[q0:q1], points[p0:p1])
        kk = min(k, p1 - p0)
        nn_idx = dist.topk(kk, dim=1, largest=False).indices + p0
        for row in nn_idx:
            neighbors.append(row)
            splits.append(splits[-1] + kk)
    return KnnSearchResult(torch.cat(neighbors), torch.tensor(splits))


def knn_batch(points: Float[Tensor, "n 3"], queries: Float[Tensor, "m 3"], k: int,
              points_row_splits: Int[Tensor, "b_plus_1"],
              queries_row_splits: Int[Tensor, "b_plus_1"]) -> Int[Tensor, "m k"]:
    ans = knn_search(points, queries, k, points_row_splits, queries_row_splits)
    return ragged_to_dense(ans.neighbors_index, ans.neighbors_row_splits, k)


def ragged_to_dense(values: Int[Tensor, "total"], row_splits: Int[Tensor, "m_plus_1"],
                    out_col_size: int) -> Int[Tensor, "m out_col_size"]:
    # rows with fewer entries are padded with their first (nearest) neighbour
    counts = row_splits[1:] - row_splits[:-1]
    rows = torch.repeat_interleave(torch.arange(counts.numel()), counts)
    cols = torch.arange(values.numel()) - torch.repeat_interleave(row_splits[:-1], counts)
    dense = values[row_splits[:-1]].unsqueeze(1).repeat(1, out_col_size)
    dense[rows, cols] = values
    return dense


def queryandgroup(nsample: int, points: Float[Tensor, "n 3"], queries: Float[Tensor, "m 3"],
                  feat: Float[Tensor, "n c"], points_row_splits, queries_row_splits
                  ) -> Float[Tensor, "m nsample c_plus_3"]:
    idx = knn_batch(points, queries, nsample, points_row_splits, queries_row_splits)
    m, c = queries.shape[0], feat.shape[1]
    grouped_xyz = points[idx.view(-1), :].view(m, nsample, 3) - queries.unsqueeze(1)
    grouped_feat = feat[idx.view(-1), :].view(m, nsample, c)
    return torch.cat((grouped_xyz, grouped_feat), -1)


class TransitionDown(nn.Module):
    def __init__(self, in_planes, out_planes, nsample):
        super().__init__()
        self.nsample = nsample
        self.linear = nn.Linear(3 + in_planes, out_planes)

    def forward(self, points, feat, points_row_splits, queries, queries_row_splits):
        grouped = queryandgroup(self.nsample, points, queries, feat,
                                points_row_splits, queries_row_splits)
        return torch.relu(self.linear(grouped)).max(dim=1).values


if __name__ == "__main__":
    torch.manual_seed(0)
    cloud_a = torch.rand(10, 3)
    cloud_b = torch.rand(3, 3) + 2.0
    points = torch.cat([cloud_a, cloud_b])
    feat = torch.randn(points.shape[0], 6)
    queries = torch.cat([cloud_a[[0, 3, 6, 9]], cloud_b])
    points_row_splits = torch.tensor([0, 10, 13])
    queries_row_splits = torch.tensor([0, 4, 7])
    layer = TransitionDown(6, 8, nsample=4)
    with torch.no_grad():
        out = layer(points, feat, points_row_splits, queries, queries_row_splits)
    assert out.shape == (7, 8)
    splits = [(0, 10, 0, 4), (10, 13, 4, 7)]
    for p0, p1, q0, q1 in splits:
        for qi in range(q0, q1):
            q = queries[qi]
            d = [(float(((points[j] - q) ** 2).sum()), j) for j in range(p0, p1)]
            nbrs = [j for _, j in sorted(d)[:4]]
            rows = []
            for j in nbrs:
                x = torch.cat([points[j] - q, feat[j]])
                rows.append(torch.relu(layer.linear(x)))
            expected = torch.stack(rows).max(dim=0).values
            assert torch.allclose(out[qi], expected, atol=1e-5), qi
    print("ok")
