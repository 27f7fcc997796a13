"""Copies and conversions hold the values they were given: `copy.deepcopy(t)`, `torch.as_tensor(t)`,
`torch.from_numpy(t.numpy())` keep a literal's ids, so a lookup past the table is still reported."""
import pytest

from .conftest import codes
from .snippets import call_run

LOOKUP = """
import copy

import numpy as np
import torch

def run():
    table = torch.randn(10, 4)
    ids = torch.tensor([3, 12])
    kept = {kept}
    return table.index_select(0, kept)
"""


@pytest.mark.parametrize("kept", ["copy.deepcopy(ids)", "torch.as_tensor(ids)", "torch.from_numpy(ids.numpy())",
                                  "torch.as_tensor(np.asarray(ids))"])
def test_a_copy_holds_the_ids_it_was_given(torch, kept):
    code = LOOKUP.format(kept=kept)
    with pytest.raises(IndexError, match="out of range"):
        call_run(code)
    assert codes(code) == ["GL011"]


def test_a_name_that_says_ids_does_not_hide_a_written_literals_top(torch):
    # `ids` reads as a vocabulary's ids, whose size GL004 compares; the literal's 12 is a value all the same
    for name in ("ids", "rows_to_read"):
        code = LOOKUP.format(kept="ids").replace("ids", name)
        with pytest.raises(IndexError, match="out of range"):
            call_run(code)
        assert codes(code) == ["GL011"], name


def test_index_fill_takes_negative_positions_but_not_positions_past_the_dim(torch):
    past = LOOKUP.replace("return table.index_select(0, kept)", "return table.index_fill(0, kept, 0.0)").format(kept="ids")
    with pytest.raises(IndexError):
        call_run(past)
    assert codes(past) == ["GL011"]
    wrapped = past.replace("torch.tensor([3, 12])", "torch.tensor([3, -1])")
    assert call_run(wrapped)[-1].abs().sum().item() == 0  # -1 is the last row
    assert codes(wrapped) == []
