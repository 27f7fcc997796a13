"""Two lists that filter the same items the same way are empty together: `blank = [V + i for i, t in m if t != 0]`
and `fill = [t for i, t in m if t != 0]`. An `if blank:` guard therefore guards `torch.tensor(fill)` too, and the
float32 `torch.tensor([])` of an empty filter never reaches index_add_. Each claim runs in torch."""
import pytest

from .conftest import codes
from .snippets import run_snippet

torch = pytest.importorskip("torch")

COLLAPSE = """
import torch

def collapse(scores, copy_map, vocab):
    blank = [vocab + i for i, t in copy_map if t != 0]
    fill = [t for i, t in copy_map if t != 0]
    if blank:
        blank = torch.tensor(blank)
        fill = torch.tensor(fill)
        scores.index_add_(1, fill, scores.index_select(1, blank))
        scores.index_fill_(1, blank, 0.0)
    return scores

if __name__ == "__main__":
    scores = torch.arange(12.0).view(2, 6)
    OUT = collapse(scores.clone(), [(0, 2), (1, 0)], 4)
    EMPTY = collapse(scores.clone(), [(0, 0), (1, 0)], 4)
"""


def test_a_guard_on_one_twin_guards_the_other():
    assert codes(COLLAPSE) == []
    scope = run_snippet(COLLAPSE)
    assert scope["OUT"][0].tolist() == [0.0, 1.0, 2.0 + 4.0, 3.0, 0.0, 5.0]
    assert torch.equal(scope["EMPTY"], torch.arange(12.0).view(2, 6))  # both lists empty: nothing runs


def test_without_the_guard_the_empty_float_index_is_reported_and_raises():
    code = COLLAPSE.replace("    if blank:\n", "    if True:\n")
    assert "GL008" in codes(code)
    with pytest.raises(Exception, match="index"):
        run_snippet(code)


def test_a_list_of_another_filter_is_no_twin():
    code = COLLAPSE.replace("fill = [t for i, t in copy_map if t != 0]", "fill = [t for i, t in copy_map if t > 1]")
    assert code != COLLAPSE
    assert "GL008" in codes(code)
    bad = code.replace("OUT = collapse(scores.clone(), [(0, 2), (1, 0)], 4)",
                       "OUT = collapse(scores.clone(), [(0, 1), (1, 0)], 4)")
    with pytest.raises(Exception, match="index"):
        run_snippet(bad)  # blank holds one position, fill none: torch.tensor([]) is float32
