"""Raw ids written in a script's records, against a table sized by the count of distinct ids
(`len(set(...))`, `len(sorted({...}))`): the ids themselves reach past the count. Each claim is run in
torch."""
import textwrap

import pytest

from .conftest import lint


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def run(code: str):
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    return scope


RATINGS = """
import torch
import torch.nn as nn


class UserBias(nn.Module):
    def __init__(self, num_users):
        super().__init__()
        self.bias = nn.Embedding(num_users, 1)

    def forward(self, users):
        return self.bias(users).squeeze(-1)


def to_tensors(interactions):
    users, items = torch.tensor(interactions).T
    return users, items


if __name__ == "__main__":
    interactions = [(17, 3), (42, 5), (17, 9), (8, 3)]
    num_users = len({u for u, _ in interactions})
    users, items = to_tensors(interactions)
    print(UserBias(num_users)(users))
"""


def test_raw_user_ids_looked_up_in_a_table_of_distinct_users(torch):
    assert findings(RATINGS) == [(12, "GL011")]
    scope = run(RATINGS)
    users, _ = scope["to_tensors"]([(17, 3), (42, 5), (17, 9), (8, 3)])
    with pytest.raises(IndexError, match="index out of range in self"):
        scope["UserBias"](3)(users)


def test_remapped_user_ids_stay_silent(torch):
    code = RATINGS.replace("users, items = to_tensors(interactions)", """index = {u: i for i, u in enumerate(sorted({u for u, _ in interactions}))}
    users, items = to_tensors([(index[u], i) for u, i in interactions])""")
    assert findings(code) == []
    scope = run(code)
    users, _ = scope["to_tensors"]([(1, 3), (2, 5), (1, 9), (0, 3)])
    scope["UserBias"](3)(users)


def test_set_and_sorted_of_written_ints():
    from gather_lint.static.literal_sets import call
    from gather_lint.static.values import DimVal, SeqVal

    ids = SeqVal((DimVal(7), DimVal(4), DimVal(7)))
    assert [i.dim for i in call("set", [ids], {}).items] == [7, 4]
    assert [i.dim for i in call("sorted", [ids], {}).items] == [4, 7, 7]
    assert call("set", [SeqVal((DimVal(7), None))], {}) is None  # an unknown item: no count


# rows of an int literal (written_rows.py): each row's largest value is among that row's values

EDGE_LIST = """
import torch


class DegreeNorm(torch.nn.Module):
    def forward(self, edges, n):
        src, dst = edges
        deg = torch.zeros(n).index_add_(0, dst, torch.ones(dst.numel()))
        return deg[src] * deg[dst]


def in_counts(edges, n):
    return torch.zeros(n).scatter_add_(0, edges[1, :], torch.ones(edges.size(1)))


if __name__ == "__main__":
    edges = torch.tensor([[0, 1, 2, 2, 3], [1, 2, 0, 3, 5]])
    print(DegreeNorm()(edges, edges.size(1) - 1), in_counts(edges, 6))
"""


def test_a_literal_row_with_an_id_past_a_table_sized_by_the_edge_count(torch):
    assert findings(EDGE_LIST) == [(8, "GL011"), (9, "GL011")]  # dst reaches 5 in both
    scope = run(EDGE_LIST)
    edges = torch.tensor([[0, 1, 2, 2, 3], [1, 2, 0, 3, 5]])
    with pytest.raises(IndexError, match="index out of range"):
        scope["DegreeNorm"]()(edges, edges.size(1) - 1)
    scope["in_counts"](edges, 6)  # six nodes hold id 5


def test_the_row_that_fits_and_a_table_of_every_node_stay_silent(torch):
    code = EDGE_LIST.replace("edges.size(1) - 1)", "6)")
    assert findings(code) == []
    run(code)["DegreeNorm"]()(torch.tensor([[0, 1, 2, 2, 3], [1, 2, 0, 3, 5]]), 6)
    # the source row alone (ids up to 3) fits four nodes, whatever the other row holds
    row_zero = EDGE_LIST.replace("index_add_(0, dst,", "index_add_(0, src,").replace("deg[src] * deg[dst]", "deg[src]") \
        .replace("edges.size(1) - 1)", "4)")
    assert findings(row_zero) == []
    run(row_zero)["DegreeNorm"]()(torch.tensor([[0, 1, 2, 2, 3], [1, 2, 0, 3, 5]]), 4)


def test_a_selection_from_the_row_may_leave_the_id_out():
    code = EDGE_LIST.replace("deg[src] * deg[dst]", "deg[dst[:2]]").replace(
        "index_add_(0, dst, torch.ones(dst.numel()))", "index_add_(0, dst[:2], torch.ones(2))")
    assert findings(code) == []


def test_ids_masked_or_capped_before_the_lookup_stay_silent(torch):
    code = """
    import torch

    def masked(edges, n, table):
        src, dst = edges
        return table[dst.masked_fill(dst >= n, 0)]

    def capped(edges, n, table):
        dst = edges[1].clone()
        dst[dst >= n] = n - 1
        return table[dst]

    if __name__ == "__main__":
        edges = torch.tensor([[0, 1, 2], [1, 2, 7]])
        print(masked(edges, 4, torch.randn(4, 2)), capped(edges, 4, torch.randn(4, 2)))
    """
    assert findings(code) == []
    scope = run(code)
    edges = torch.tensor([[0, 1, 2], [1, 2, 7]])
    scope["masked"](edges, 4, torch.randn(4, 2))
    scope["capped"](edges, 4, torch.randn(4, 2))


def test_ids_replaced_by_where_stay_silent(torch):
    code = """
    import torch

    def replaced(edges, n, table):
        dst = edges[1]
        return table[torch.where(dst >= n, 0, dst)]

    def counted(keep, table):
        slots = keep.long().cumsum(-1)
        return table[torch.where(slots >= 10, 9, slots)]

    if __name__ == "__main__":
        edges = torch.tensor([[0, 1, 2], [1, 2, 7]])
        print(replaced(edges, 4, torch.randn(4, 2)), counted(torch.randn(3, 10) > 0, torch.randn(10, 2)))
    """
    assert findings(code) == []
    scope = run(code)
    scope["replaced"](torch.tensor([[0, 1, 2], [1, 2, 7]]), 4, torch.randn(4, 2))
    scope["counted"](torch.ones(3, 10, dtype=torch.bool), torch.randn(10, 2))
