"""Three facts of the op model, each checked against torch:

* `matmul` with a 1-d operand: `[N, K] @ [K]` is `[N]`, `[K] @ [B, K, M]` is `[B, M]`, `[K] @ [K]` is 0-d;
* `x.numel()` of a known shape is the product of its sizes, a symbol's own name for a 1-d tensor;
* a fill that a `scatter_reduce(..., include_self=False)` writes over is a placeholder, not a value the
  code reads (the first position of each id, `N` where an id has none).
"""
import pytest

from .conftest import codes, lint
from .snippets import call_run as run

RETRIEVE = """
import torch


def retrieve(query, table, doc_of_row, k):
    # query: [16], table: [40, 16], doc_of_row: [40]
    sims = table @ query
    top = sims.topk(k)
    return doc_of_row.gather(0, top.indices.unsqueeze(-1))


def run():
    torch.manual_seed(0)
    return retrieve(torch.randn(16), torch.randn(40, 16), torch.arange(40) // 4, 5)
"""


def test_a_matrix_times_a_vector_is_a_vector(torch):
    """[40, 16] @ [16] is [40]: a [5, 1] index into it has another rank, and torch raises."""
    assert codes(RETRIEVE) == ["GL001"]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        run(RETRIEVE)
    fixed = RETRIEVE.replace("top.indices.unsqueeze(-1)", "top.indices")
    assert codes(fixed) == []
    assert len(run(fixed)) == 5


@pytest.mark.parametrize("product, rank", [
    ("torch.randn(16) @ torch.randn(2, 16, 7)", 2),  # [K] @ [B, K, M]: the row's dim dropped again
    ("torch.randn(16) @ torch.randn(16)", 0),  # a dot product
    ("torch.randn(3, 40, 16) @ torch.randn(16)", 2),  # [B, N, K] @ [K]
])
def test_the_rank_of_a_product_with_a_vector(torch, product, rank):
    program = f"""
import torch


def run():
    scores = {product}
    idx = torch.zeros({", ".join(["1"] * (max(rank, 1) + 1))}, dtype=torch.long)  # a 0-d input takes a 1-d index
    return scores.gather(0, idx)
"""
    assert codes(program) == ["GL001"]  # the index has one dim more than the product
    assert eval(product, {"torch": torch}).dim() == rank
    with pytest.raises(RuntimeError):
        run(program)


FIRST_POSITIONS = """
import torch


def first_positions(ids):
    # ids: [N]
    uniq, inverse = torch.unique(ids, sorted=True, return_inverse=True)
    positions = torch.arange(ids.numel())
    first = torch.full((uniq.numel(),), ids.numel(), dtype=torch.long)
    first.scatter_reduce_(0, inverse, positions, reduce="amin", include_self=False)
    return ids.index_select(0, first)


def run():
    return first_positions(torch.tensor([3, 1, 3, 2, 1])).tolist()
"""


def test_a_fill_written_over_by_a_reduction_is_a_placeholder(torch):
    """Every unique id has a first position, so no `N` is left to read; the expression form says the same."""
    assert codes(FIRST_POSITIONS) == []
    assert run(FIRST_POSITIONS) == [1, 2, 3]
    chained = FIRST_POSITIONS.replace(
        """    first = torch.full((uniq.numel(),), ids.numel(), dtype=torch.long)
    first.scatter_reduce_(0, inverse, positions, reduce="amin", include_self=False)""",
        """    first = torch.full((uniq.numel(),), ids.numel(), dtype=torch.long).scatter_reduce(
        0, inverse, positions, reduce="amin", include_self=False)""")
    assert chained != FIRST_POSITIONS
    assert codes(chained) == []
    assert run(chained) == [1, 2, 3]


def test_a_fill_of_the_element_count_read_as_positions_is_past_the_end(torch):
    """`ids.numel()` of [N] is N: a fill of it read as positions of ids reads one past the last."""
    program = FIRST_POSITIONS.replace(
        """    first.scatter_reduce_(0, inverse, positions, reduce="amin", include_self=False)\n""", "")
    findings = lint(program)
    assert [f.code for f in findings] == ["GL011"]
    assert "all equal to N" in findings[0].message
    with pytest.raises(IndexError):
        run(program)
    kept = FIRST_POSITIONS.replace('reduce="amin", include_self=False', 'reduce="amax", include_self=True')
    assert codes(kept) == ["GL011"]  # the maximum with the fill N included is N everywhere
    with pytest.raises(IndexError):
        run(kept)
