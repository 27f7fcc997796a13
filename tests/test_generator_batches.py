"""A generator function's call is the list of what it yields: `for xb, yb in batches(x, y, 16)` gets each
yielded pair, with the shapes the slices give. Each claim is run in torch."""
import textwrap

import pytest

from .conftest import lint

PROGRAM = '''
import torch
import torch.nn as nn


def batches(x, y, size):
    for i in range(0, len(x), size):
        yield x[i:i + size], y[i:i + size]


def run(model, x, y):
    for xb, yb in batches(x, y, 16):
        logits = model(xb)
        picked = logits.gather(1, yb{COLUMN})
        print(picked.sum())


if __name__ == "__main__":
    run(nn.Linear(8, 5), torch.randn(64, 8), torch.randint(0, 5, (64,)))
'''


def _found(code: str):
    return [(f.code, f.line) for f in lint(textwrap.dedent(code))]


def test_yielded_batches_reach_the_loop_over_the_generator(torch):
    assert _found(PROGRAM.replace("{COLUMN}", "")) == [("GL001", 14)]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(16, 5).gather(1, torch.randint(0, 5, (64,))[0:16])


def test_the_column_index_is_silent():
    assert _found(PROGRAM.replace("{COLUMN}", ".unsqueeze(1)")) == []


def test_a_generator_that_yields_unknown_items_gives_nothing():
    code = PROGRAM.replace("{COLUMN}", "").replace("yield x[i:i + size], y[i:i + size]", "yield from zip(x, y)")
    assert _found(code) == []
