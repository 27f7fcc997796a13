"""A Python `range(n)` in a tensor's key indexes as `torch.arange(n)` does: its shape meets the other keys'."""
import pytest

from .conftest import codes, lint
from .snippets import call_run as run

PICK = """
import torch


def chosen_value(values, action):
    batch_size = values.size(0)
    return values[range(batch_size), action]


def run():
    values = torch.randn(32, 4, 3)
    action = torch.randint(0, 3, (32, 4))
    return chosen_value(values, action)


if __name__ == "__main__":
    run()
"""


def test_a_range_key_that_cannot_broadcast_with_the_other_key_raises(torch):
    found = lint(PICK)
    assert [f.code for f in found] == ["GL017"]
    assert "`torch.arange(batch_size)[:, None]`" in found[0].message  # a range has no dims to add: the fix names arange
    with pytest.raises(IndexError, match="shape mismatch: indexing tensors could not be broadcast together"):
        run(PICK)
    fixed = PICK.replace("values[range(batch_size), action]", "values[torch.arange(batch_size)[:, None], action]")
    assert codes(fixed) == []
    assert tuple(run(fixed).shape) == (32, 4, 3)  # runs: each row picks its own entries


def test_a_range_key_beside_one_pick_per_row_stays_silent(torch):
    program = PICK.replace("torch.randn(32, 4, 3)", "torch.randn(32, 3)").replace("(32, 4))", "(32,))")
    assert codes(program) == []
    values_shape = run(program).shape
    assert tuple(values_shape) == (32,)
