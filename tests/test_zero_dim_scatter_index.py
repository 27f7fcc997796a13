"""GL009 with a 0-d index: scatter reads it as one entry, so of a 1-d src only the first value is written (and the
backward pass fails); rows taken from a tensor with one dim fewer than meant (`zip(values, positions)` over [L]
positions) give such an index."""
import pytest

from .conftest import codes, lint
from .snippets import run_snippet

UNSHARD = """
import torch

def unshard(local_values, position_ids):
    output = local_values.new_zeros(local_values.shape[0], 16)
    for row_vals, row_pos, row_out in zip(local_values, position_ids, output):
        row_out.scatter_(0, row_pos.long(), row_vals)
    return output

if __name__ == "__main__":
    OUT = unshard(torch.randn(2, 8), POSITIONS)
"""


def test_a_zero_dim_index_per_row_is_reported_and_writes_one_value(torch):
    program = UNSHARD.replace("POSITIONS", "torch.arange(8)")
    found = [f for f in lint(program) if f.code == "GL009"]
    assert len(found) == 1 and "0-d" in found[0].message
    out = run_snippet(program)["OUT"]
    assert int((out != 0).sum()) == 2  # one value per row, not eight
    src = torch.randn(8, requires_grad=True)
    with pytest.raises(RuntimeError, match="invalid gradient"):
        torch.zeros(16).scatter(0, torch.tensor(3), src).sum().backward()


def test_rows_of_positions_per_row_are_silent(torch):
    program = UNSHARD.replace("POSITIONS", "torch.arange(8).repeat(2, 1)")
    assert codes(program) == []
    assert int((run_snippet(program)["OUT"] != 0).sum()) == 16


def test_a_zero_dim_index_with_a_zero_dim_src_is_silent(torch):
    program = "import torch\nout = torch.zeros(16)\nout.scatter_(0, torch.tensor(3), torch.tensor(2.0))\n"
    assert codes(program) == []
    run_snippet(program)


NARROW_SELF = """
import torch
masks = torch.rand(2, 3, 4, 5)  # [b, n, f, t]
index = torch.randint(0, 6, (4,))[None, None, :, None].expand(2, 1, -1, 5)
out = torch.zeros(2, SELF_N, 6, 5).scatter_add_(2, index, masks)
"""


def test_an_index_whose_expansion_would_not_fit_the_written_tensor_gets_no_fix(torch):
    """GL009's `.expand(...)` fix only where the expanded index still fits the tensor written: with that tensor of
    size 1 on the dim too, torch would refuse the expanded index, so the advice names both and no fix is offered."""
    found = [f for f in lint(NARROW_SELF.replace("SELF_N", "1")) if f.code == "GL009"]
    assert len(found) == 1 and found[0].fix is None and "write into a tensor of src's size" in found[0].message
    with pytest.raises(RuntimeError):
        torch.zeros(2, 1, 6, 5).scatter_add_(2, torch.zeros(2, 3, 4, 5, dtype=torch.long), torch.rand(2, 3, 4, 5))
    wide = [f for f in lint(NARROW_SELF.replace("SELF_N", "3")) if f.code == "GL009"]
    assert len(wide) == 1 and wide[0].fix is not None
