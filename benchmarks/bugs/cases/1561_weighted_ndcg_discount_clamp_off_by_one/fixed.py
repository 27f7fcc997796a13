import math

import torch
from jaxtyping import Float, Int
from torch import Tensor


def rank_within_source(
    src: Int[Tensor, "num_labels"],
    weight: Float[Tensor, "num_labels"],
    num_src: int,
) -> Int[Tensor, "num_labels"]:
    """0-based position of every ground-truth item in its source node's ideal (weight-sorted) list."""
    order = torch.argsort(weight, descending=True, stable=True)
    order = order[torch.argsort(src[order], stable=True)]
    src_sorted = src[order]
    count = torch.bincount(src_sorted, minlength=num_src)
    start = torch.cumsum(count, 0) - count
    pos_sorted = torch.arange(order.numel()) - start[src_sorted]
    pos = torch.empty_like(pos_sorted)
    pos[order] = pos_sorted
    return pos


class WeightedLinkNDCG(torch.nn.Module):
    """NDCG@k for link prediction with graded relevance (edge_label_weight)."""

    def __init__(self, k: int):
        super().__init__()
        self.k = k
        self.register_buffer("discount", torch.arange(2, k + 2, dtype=torch.float).log2())

    def forward(
        self,
        pred_index_mat: Int[Tensor, "num_src k"],
        edge_label_index: Int[Tensor, "2 num_labels"],
        edge_label_weight: Float[Tensor, "num_labels"],
        num_dst: int,
    ) -> Float[Tensor, "num_src"]:
        num_src = pred_index_mat.size(0)
        rel = torch.zeros(num_src, num_dst)
        rel[edge_label_index[0], edge_label_index[1]] = edge_label_weight
        pred_rel_mat = rel.gather(1, pred_index_mat)
        dcg = (pred_rel_mat / self.discount.view(1, -1)).sum(dim=-1)

        pos = rank_within_source(edge_label_index[0], edge_label_weight, num_src)
        discount = torch.cat([self.discount, self.discount.new_full((1,), float("inf"))])
        discount = discount[pos.clamp(max=self.k)]
        idcg = torch.zeros(num_src).index_add_(0, edge_label_index[0], edge_label_weight / discount)

        out = dcg / idcg
        out[out.isnan() | out.isinf()] = 0.0
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    num_users, num_items, k = 4, 30, 3
    # user 2 rated six items, more than k + 1 = 4
    edge_label_index = torch.tensor([
        [0, 0, 1, 2, 2, 2, 2, 2, 2, 3],
        [4, 9, 17, 1, 5, 8, 12, 21, 27, 2],
    ])
    edge_label_weight = torch.tensor([3.0, 1.0, 2.0, 5.0, 4.0, 4.0, 2.0, 1.0, 1.0, 2.0])
    scores = torch.randn(num_users, num_items)
    scores[edge_label_index[0], edge_label_index[1]] += 1.5
    pred_index_mat = scores.topk(k, dim=-1).indices
    metric = WeightedLinkNDCG(k)
    out = metric(pred_index_mat, edge_label_index, edge_label_weight, num_items)
    ref = []
    for u in range(num_users):
        w = {int(i): float(x) for s, i, x in zip(edge_label_index[0], edge_label_index[1], edge_label_weight) if s == u}
        dcg = sum(w.get(int(i), 0.0) / math.log2(j + 2) for j, i in enumerate(pred_index_mat[u]))
        idcg = sum(x / math.log2(j + 2) for j, x in enumerate(sorted(w.values(), reverse=True)[:k]))
        ref.append(dcg / idcg if idcg > 0 else 0.0)
    assert torch.allclose(out, torch.tensor(ref), atol=1e-5), (out, ref)
    print("ok", [round(v, 4) for v in out.tolist()])
