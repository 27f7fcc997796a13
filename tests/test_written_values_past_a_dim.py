"""Index values written out in a literal are no positions of any dim: their largest is there whatever dim of the
input shares its size. Beam rows up to 5 selected along the stacked (key, value) dim of a cache [2, 6, ...] are
out of range there, though the batch dim happens to be 6. Each claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import run_snippet

REORDER = """
import torch

def reorder_past(past, beam_idx):
    return tuple(layer_past.index_select(DIM, beam_idx) for layer_past in past)

if __name__ == "__main__":
    past = tuple(torch.randn(2, 6, 4, 5) for _ in range(2))
    OUT = reorder_past(past, torch.tensor([0, 0, 2, 5, 3, 3]))
"""


def test_beam_rows_selected_along_the_stacked_dim_are_out_of_range(torch):
    program = REORDER.replace("DIM", "0")
    assert [(f.code, f.line) for f in lint(program)] == [("GL011", 5)]
    with pytest.raises(IndexError, match="index out of range in self"):
        run_snippet(program)


def test_beam_rows_selected_along_the_batch_dim_are_not(torch):
    program = REORDER.replace("DIM", "1")
    assert lint(program) == []
    assert tuple(run_snippet(program)["OUT"][0].shape) == (2, 6, 4, 5)
