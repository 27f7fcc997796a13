import torch
from jaxtyping import Bool, Int
from torch import Tensor


def compact_ids(ids: Int[Tensor, " n"]) -> tuple[Int[Tensor, " n"], Int[Tensor, " k"]]:
    """Relabel ids to 0..k-1 in sorted order; also return the old id of every new id."""
    unique_ids, inverse = torch.unique(ids, sorted=True, return_inverse=True)
    return inverse, unique_ids


def old_to_new_table(unique_ids: Int[Tensor, " k"], num_old: int) -> Int[Tensor, " num_old"]:
    """Dense lookup table old id -> new id, -1 for ids that do not occur."""
    table = torch.full((num_old,), -1, dtype=torch.long)
    return table.scatter_(0, unique_ids, torch.arange(unique_ids.numel()))


def remap_edges(
    edge_index: Int[Tensor, "2 e"], keep: Bool[Tensor, " num_nodes"]
) -> tuple[Int[Tensor, "2 e_kept"], Int[Tensor, " num_kept"]]:
    """Induced subgraph on the kept nodes with compact node ids."""
    kept_nodes = keep.nonzero().squeeze(1)
    table = old_to_new_table(kept_nodes, keep.numel())
    edge_mask = keep[edge_index[0]] & keep[edge_index[1]]
    sub = edge_index[:, edge_mask]
    return table[sub], kept_nodes


def lookup_sorted(sorted_keys: Int[Tensor, " k"], queries: Int[Tensor, " q"]) -> Int[Tensor, " q"]:
    """Position of each query in sorted_keys, -1 when absent."""
    pos = torch.searchsorted(sorted_keys, queries).clamp(max=sorted_keys.numel() - 1)
    found = sorted_keys.gather(0, pos) == queries
    return torch.where(found, pos, torch.full_like(pos, -1))


if __name__ == "__main__":
    torch.manual_seed(0)
    ids = torch.tensor([42, 7, 99, 7, 3, 42])
    new, old = compact_ids(ids)
    assert old.tolist() == [3, 7, 42, 99]
    assert new.tolist() == [2, 1, 3, 1, 0, 2]
    table = old_to_new_table(old, 100)
    assert all(int(table[o]) == i for i, o in enumerate(old.tolist()))
    assert int((table >= 0).sum()) == 4

    edge_index = torch.randint(0, 10, (2, 30))
    keep = torch.rand(10) > 0.4
    sub, kept = remap_edges(edge_index, keep)
    kept_list = kept.tolist()
    ref = [[kept_list.index(int(u)), kept_list.index(int(v))] for u, v in edge_index.t().tolist()
           if keep[u] and keep[v]]
    assert sub.t().tolist() == ref

    q = torch.tensor([7, 8, 99, 0])
    assert lookup_sorted(old, q).tolist() == [1, -1, 3, -1]
    print("ok")
