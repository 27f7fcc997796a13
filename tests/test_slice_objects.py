"""`slice(a, b)` objects are the slices they stand for: `x[:, span]` with `span = slice(2, 5)` is `x[:, 2:5]`."""
import pytest

from .conftest import codes
from .snippets import run_snippet

PROGRAM = """
import torch
x = torch.randn(4, 10)
span = SPAN
window = x[:, span]
picked = window.gather(0, torch.zeros(4, 5, dtype=torch.long))
"""


@pytest.mark.parametrize("span", ["slice(2, 5)", "slice(None, 3)", "slice(3)", "slice(2, 8, 2)"])
def test_a_slice_object_narrows_like_the_slice_it_stands_for(span, torch):
    program = PROGRAM.replace("SPAN", span)
    assert codes(program) == ["GL003"]
    with pytest.raises(RuntimeError, match="no larger than self"):
        run_snippet(program)


def test_a_slice_object_wide_enough_is_silent(torch):
    program = PROGRAM.replace("SPAN", "slice(2, 7)")
    assert codes(program) == []
    assert run_snippet(program)["picked"].shape == (4, 5)
