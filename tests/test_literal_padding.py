"""A written-out int table padded with a negative value (`torch.tensor([[1, 2, -1], [3, -1, -1]])`) holds
that padding wherever it is used as an index; a lone negative among positions (`[0, -1]`: the first and
the last) counts from the end on purpose and is no padding (interp_helpers.padding_of_literal).

Torch is the oracle: `table[ids]` with the padded table silently reads the last row for every pad (no
error), and index_select raises on it; `x[torch.tensor([0, -1])]` reads the first and last rows, as meant.
"""
import pytest

from .conftest import lint
from .snippets import run_snippet

PADDED_SUBSCRIPT = """
    import torch

    def neighbour_sum(feats, edge):
        # feats: [V, D]
        ring = torch.tensor([[1, 2, -1], [0, -1, -1], [0, 1, 3], [2, -1, -1]])
        return feats[ring].sum(1)

    if __name__ == "__main__":
        feats = torch.arange(8.0).view(4, 2)
        out = neighbour_sum(feats, None)
        expected = torch.stack([sum((feats[j] for j in row if j >= 0), torch.zeros(2))
                                for row in [[1, 2, -1], [0, -1, -1], [0, 1, 3], [2, -1, -1]]])
"""

PADDED_FLAT_INDEX_SELECT = """
    import torch

    def pick(x):
        # x: [T, D]
        slots = torch.tensor([4, 7, -1, -1])
        return x.index_select(0, slots)

    if __name__ == "__main__":
        out = pick(torch.randn(10, 3))
"""

ENDS = """
    import torch

    def ends(x):
        # x: [T, D]
        idx = torch.tensor([0, -1])
        return x[idx], x[torch.tensor([0, -1])]

    if __name__ == "__main__":
        x = torch.randn(5, 2)
        out = ends(x)
        expected = torch.stack([x[0], x[4]])
"""


def test_padded_table_as_subscript_key_is_reported_and_reads_the_last_row(torch):
    found = [f for f in lint(PADDED_SUBSCRIPT) if f.code == "GL010"]
    assert [f.line for f in found] == [7]
    assert "-1" in found[0].message and "last entry" in found[0].message
    scope = run_snippet(PADDED_SUBSCRIPT)
    assert not torch.equal(scope["out"], scope["expected"])  # silently wrong: each pad read the last row


def test_padded_flat_list_into_index_select_is_reported_and_torch_raises(torch):
    assert [f.line for f in lint(PADDED_FLAT_INDEX_SELECT) if f.code == "GL011"] == [7]
    with pytest.raises(IndexError):
        run_snippet(PADDED_FLAT_INDEX_SELECT)


def test_first_and_last_by_a_lone_minus_one_stay_silent(torch):
    assert lint(ENDS) == []
    scope = run_snippet(ENDS)
    assert all(torch.equal(o, scope["expected"]) for o in scope["out"])
