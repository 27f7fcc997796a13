"""GL001 at `index_fill_` given a tensor of values: it writes one value at every index, and torch refuses a value
tensor of one or more dims (restoring saved counters with `x.index_fill_(0, slots, saved)` needs `index_copy_`).
The static check and the runtime share the rule; torch is run on each claim."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

torch = pytest.importorskip("torch")

RESTORE = """
import torch

def restore(counts, slots, top):
    saved = counts[slots].clone()
    counts.index_fill_(0, slots, top)
    order = torch.argsort(counts, stable=True)
    counts.{restore}
    return order

counts = torch.tensor([5, 1, 7, 2, 9])
slots = torch.tensor([1, 3])
order = restore(counts, slots, int(counts.max()) + 1)
"""


def _codes(code):
    return [(v.code, v.line) for v in lint(textwrap.dedent(code))]


def test_a_tensor_of_saved_values_given_to_index_fill_is_reported():
    code = RESTORE.replace("{restore}", "index_fill_(0, slots, saved)")
    assert _codes(code) == [("GL001", 8)]
    with pytest.raises(RuntimeError, match="only supports a 0-dimensional value tensor"):
        run_snippet(code)


@pytest.mark.parametrize("restore", ["index_copy_(0, slots, saved)", "index_fill_(0, slots, saved[0])",
                                     "index_fill_(0, slots, 3)"])
def test_index_copy_and_a_single_value_stay_silent(restore):
    code = RESTORE.replace("{restore}", restore)
    assert _codes(code) == []
    scope = run_snippet(code)
    expected = [5, 1, 7, 2, 9] if restore.startswith("index_copy") else None
    if expected is not None:
        assert scope["counts"].tolist() == expected


def test_the_runtime_stops_the_same_call_with_the_same_code():
    from gather_lint.runtime import GatherLintError, checking

    counts, slots = torch.tensor([5, 1, 7, 2, 9]), torch.tensor([1, 3])
    with checking(), pytest.raises(GatherLintError, match="GL001"):
        counts.index_fill_(0, slots, counts[slots].clone())
