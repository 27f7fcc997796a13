from typing import Optional, Tuple

import torch
from jaxtyping import Float, Int
from torch import Tensor


class BipartiteAdj:
    """COO adjacency between ``num_rows`` destination and ``num_cols`` source nodes."""

    def __init__(self, edge_index: Int[Tensor, "2 nnz"], sparse_size: Tuple[int, int],
                 value: Optional[Float[Tensor, " nnz"]] = None):
        self.edge_index = edge_index
        self.sparse_size = sparse_size
        self.value = value


def scatter_spmm(adj: BipartiteAdj, other: Float[Tensor, "num_cols feat"],
                 reduce: str = "sum") -> Float[Tensor, "num_rows feat"]:
    row, col = adj.edge_index
    other_j = other.index_select(0, col)
    if adj.value is not None:
        other_j = other_j * adj.value.view(-1, 1)
    dim_size = other.size(0)
    out = other.new_zeros(dim_size, other.size(1))
    index = row.view(-1, 1).expand_as(other_j)
    return out.scatter_reduce_(0, index, other_j, reduce=reduce, include_self=False)


def user_item_propagate(adj: BipartiteAdj, item_emb: Float[Tensor, "items dim"]) -> Float[Tensor, "users dim"]:
    return scatter_spmm(adj, item_emb, reduce="mean")


if __name__ == "__main__":
    torch.manual_seed(0)
    num_users, num_items, dim = 6, 4, 8
    edges = torch.tensor([[0, 0, 1, 2, 3, 4, 5, 5],
                          [0, 1, 1, 2, 3, 0, 2, 3]])
    adj = BipartiteAdj(edges, (num_users, num_items))
    item_emb = torch.randn(num_items, dim)
    user_emb = user_item_propagate(adj, item_emb)
    print("user embeddings:", tuple(user_emb.shape))
