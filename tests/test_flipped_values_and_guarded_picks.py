"""Values through a reversal and a guarded conditional expression.

`x.flip(0)` and `reversed(x)` hold the same values in the other order: what is known of each value (its listing,
its bound, its sign) still holds, so a schedule read one past its end through a reversed timestep loop is found as
through the plain one. `table[t] if t < len(table) else last` reads the table only where the test holds: the
bound the test sets caps t in that arm, as an `if` statement does."""
import pytest

from .conftest import codes, lint
from .snippets import run_snippet

SCHEDULE = """
import torch


class Scheduler:
    def __init__(self, train_steps=1000):
        self.train_steps = train_steps
        self.alphas = torch.cumprod(1.0 - torch.linspace(1e-4, 2e-2, train_steps), dim=0)
        self.final = torch.tensor(1.0)

    def set_timesteps(self, n):
        self.n = n
        self.timesteps = (torch.arange(0, n) * (self.train_steps // n))ORDER

    def next_alpha(self, t):
        nxt = t + self.train_steps // self.n
        return READ


def invert(scheduler):
    out = []
    for t in LOOP:
        out.append(scheduler.next_alpha(t))
    return out


if __name__ == "__main__":
    s = Scheduler()
    s.set_timesteps(50)
    RESULT = invert(s)
"""

BUGGY_READ = "self.alphas[nxt] if nxt >= 0 else self.final"
GUARDED_READ = "self.alphas[nxt] if nxt < len(self.alphas) else self.final"
FORMS = [(".flip(0)", "reversed(scheduler.timesteps)"), ("", "reversed(scheduler.timesteps)"),
         (".flip(0)", "scheduler.timesteps"), ("", "scheduler.timesteps")]


def _program(order, loop, read):
    return SCHEDULE.replace("ORDER", order).replace("LOOP", loop).replace("READ", read)


@pytest.mark.parametrize("order,loop", FORMS)
def test_one_past_the_schedule_is_found_in_every_order(order, loop, torch):
    program = _program(order, loop, BUGGY_READ)
    found = [f for f in lint(program) if f.code == "GL011"]
    assert len(found) == 1 and "1000 among them" in found[0].message
    with pytest.raises(IndexError, match="index 1000 is out of bounds"):
        run_snippet(program)


@pytest.mark.parametrize("order,loop", FORMS)
def test_a_conditional_expression_that_tests_the_bound_is_silent(order, loop, torch):
    program = _program(order, loop, GUARDED_READ)
    assert codes(program) == []
    assert len(run_snippet(program)["RESULT"]) == 50


def test_flip_keeps_each_entry_in_the_other_order(torch):
    """The listing after flip is torch's own: a read past the table only where flip moved the 7 to."""
    program = """
import torch
ids = torch.tensor([0, 1, 7]).flip(0)
table = torch.zeros(7)
head = table.index_select(0, ids[:1])
tail = table.index_select(0, ids[1:])
"""
    found = [f for f in lint(program) if f.code == "GL011"]
    assert [f.line for f in found] == [5]
    assert torch.tensor([0, 1, 7]).flip(0)[:1].tolist() == [7]
    with pytest.raises(IndexError):
        run_snippet(program)
    assert codes(program.replace("head = table.index_select(0, ids[:1])\n", "")) == []
    run_snippet(program.replace("head = table.index_select(0, ids[:1])\n", ""))
