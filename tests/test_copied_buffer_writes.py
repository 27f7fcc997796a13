"""GL013 for buffers kept on a module and updated through a copy: `new = self.buf.clone()`, a
non-accumulating write into `new` with more entries than positions, `self.buf = new`.

The copy keeps the buffer's shape (attribute_stores: a buffer rewritten through a copy keeps its
shape and dtype in every method), and an index with more entries than the buffer has positions
collides for certain, fresh buffer or not. Each program runs in torch first (the oracle: the
written buffer differs from a loop keeping the latest value per position), then through the linter;
silent with a reduction, with fewer entries than positions, and when the copy is not the same shape.
"""
import textwrap

import pytest

from .conftest import lint
from .snippets import expected_lines, run_program

EVENT_CLOCK = """
import torch
import torch.nn as nn


class EventClock(nn.Module):
    def __init__(self, n_items):
        super().__init__()
        self.register_buffer("seen_at", torch.zeros(n_items, dtype=torch.long))

    def observe(self, heads, tails, stamps):
        touched = torch.cat([heads, tails])
        when = torch.cat([stamps, stamps])
        seen = self.seen_at.clone()
        seen.{write}  # expect
        self.seen_at = seen
        return seen


if __name__ == "__main__":
    clock = EventClock(4)
    heads, tails = torch.tensor([0, 1, 2]), torch.tensor([1, 3, 0])
    stamps = torch.tensor([5, 7, 9])
    got = clock.observe(heads, tails, stamps)
    latest = [0] * 4
    for h, t, s in zip(heads.tolist(), tails.tolist(), stamps.tolist()):
        latest[h], latest[t] = max(latest[h], s), max(latest[t], s)
    RESULT = got.tolist() == latest
"""

SCORE_TABLE = """
import torch


class BestScores:
    def __init__(self, n_slots):
        self.best = torch.zeros(n_slots)

    def update(self, slots, scores):
        table = self.best.detach().clone()
        table.{write}  # expect
        self.best = table


if __name__ == "__main__":
    tracker = BestScores(3)
    slots = torch.tensor([0, 2, 0, 1, 2])
    scores = torch.tensor([0.9, 0.1, 0.3, 0.5, 0.8])
    tracker.update(slots, scores)
    RESULT = torch.allclose(tracker.best, torch.tensor([0.9, 0.5, 0.8]))
"""

STYLES = {
    "module-buffer-scatter": (EVENT_CLOCK, "scatter_(0, touched, when)",
                              'scatter_reduce_(0, touched, when, reduce="amax")'),
    "plain-class-index-copy": (SCORE_TABLE, "index_copy_(0, slots, scores)",
                               'scatter_reduce_(0, slots, scores, "amax")'),
}


def _program(template: str, write: str) -> str:
    return textwrap.dedent(template).replace("{write}", write)


@pytest.mark.parametrize("style", sorted(STYLES))
def test_a_crowded_write_into_a_copied_buffer_is_reported_and_torch_loses_values(style, torch):
    template, bad_write, _ = STYLES[style]
    bad = _program(template, bad_write)
    found = [f for f in lint(bad) if f.code == "GL013"]
    assert [f.line for f in found] == expected_lines(bad), lint(bad)
    assert "certainly repeat" in found[0].message
    assert run_program(bad) is False  # torch: one write per position survives, not the largest


@pytest.mark.parametrize("style", sorted(STYLES))
def test_a_reducing_write_is_silent_and_torch_keeps_the_largest(style, torch):
    template, _, good_write = STYLES[style]
    good = _program(template, good_write)
    assert lint(good) == []
    assert run_program(good) is True


def test_fewer_entries_than_positions_stay_silent():
    program = _program(EVENT_CLOCK, "scatter_(0, touched, when)").replace("EventClock(4)", "EventClock(40)")
    assert [f for f in lint(program) if f.code == "GL013"] == []


def test_a_copy_of_another_shape_forgets_the_buffer():
    program = _program(EVENT_CLOCK, "scatter_(0, touched, when)").replace(
        "seen = self.seen_at.clone()", "seen = self.seen_at[:2].clone()")
    assert [f for f in lint(program) if f.code == "GL013"] == []
