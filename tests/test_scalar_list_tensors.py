"""`torch.tensor([...])` of items that are numbers by their syntax (`step % window`, `n - 1`, `int(x)`,
`len(s)`, `t.item()`) is 1-d with one entry per item, whatever their values; `+` and `*` also join and repeat
lists, and a bare name may hold one, so those leave the shape open."""
import pytest

from gather_lint.static.analyzer import lint_source

from .conftest import codes
from .snippets import call_run as run

WINDOW = """
import torch


class RollingWindow:
    def __init__(self, batch_size, window):
        self.valid = torch.zeros(batch_size, window)
        self.window = window
        self.step = 0

    def push(self):
        slot = torch.tensor([self.step % self.window])
        self.valid.index_copy_(1, slot, torch.ones(self.valid.size(0)))
        self.step += 1


def run():
    buf = RollingWindow(4, 5)
    buf.push()
    return buf.valid
"""


def test_a_slot_of_one_computed_entry_indexes_one_column(torch):
    assert codes(WINDOW) == ["GL001"]  # source [B] for a [B, W] self
    with pytest.raises(IndexError, match="dimensionality must match"):
        run(WINDOW)
    fixed = WINDOW.replace("torch.ones(self.valid.size(0))", "torch.ones(self.valid.size(0), 1)")
    assert codes(fixed) == []
    assert run(fixed)[:, 0].tolist() == [1.0] * 4


@pytest.mark.parametrize("items, rank", [
    ("[self.step % self.window, self.step // 2]", 1),
    ("[int(self.step), len(self.name)]", 1),
    ("[-self.step]", 1),
])
def test_items_that_are_numbers_by_syntax(torch, items, rank):
    program = WINDOW.replace("[self.step % self.window]", items).replace(
        "self.step = 0", "self.step = 0\n        self.name = 'ab'")
    assert codes(program) == ["GL001"]
    with pytest.raises(IndexError):
        run(program)


def _index_shapes(program: str) -> list:
    found = []
    lint_source(program, "<test>", observe=lambda line, site, unknown: found.append(str(site.index.shape)))
    return found


def test_items_that_may_be_lists_leave_the_shape_open(torch):
    """`a + b` of two lists joins them: torch.tensor([a + b]) is [1, 2], not [1]."""
    assert _index_shapes(WINDOW) == ["[1]"]
    program = WINDOW.replace("[self.step % self.window]", "[pair + rest]").replace(
        "    def push(self):\n", "    def push(self, pair=None, rest=None):\n")
    assert _index_shapes(program) == ["None"]
    made = torch.tensor([[0] + [1]])
    assert made.shape == (1, 2)
