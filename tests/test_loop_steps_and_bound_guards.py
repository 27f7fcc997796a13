"""GL011 for a step taken past a schedule: `for t in timesteps: table[t + ratio]`, with timesteps worked out entry by
entry (0, 20, ..., 980), reaches 1000 on the last round, one past a 1000-entry table. A guard that tests the bound
(`if nxt < table.shape[0]:`) runs its body with the values below it. Each claim runs in torch."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

torch = pytest.importorskip("torch")

INVERT = """
import torch

def invert(table, steps):
    ratio = 1000 // steps
    timesteps = torch.arange(0, steps) * ratio
    out = []
    for t in timesteps:
        nxt = t + {offset}
{read}
    return out

alphas = torch.cumprod(1.0 - torch.linspace(1e-4, 2e-2, 1000), dim=0)
out = invert(alphas, 50)
"""

PLAIN = "        out.append(table[nxt])"
GUARDED = """        if nxt < table.shape[0]:
            out.append(table[nxt])
        else:
            out.append(table[-1])"""


def _gl011_lines(code):
    return [v.line for v in lint(textwrap.dedent(code)) if v.code == "GL011"]


def test_the_last_step_plus_the_stride_is_one_past_the_schedule():
    code = INVERT.replace("{offset}", "ratio").replace("{read}", PLAIN)
    assert _gl011_lines(code) == [10]
    with pytest.raises(IndexError, match="index 1000 is out of bounds"):
        run_snippet(code)


def test_a_smaller_offset_stays_inside_and_silent():
    code = INVERT.replace("{offset}", "19").replace("{read}", PLAIN) + textwrap.dedent("""
    assert torch.equal(torch.stack(out), alphas[torch.arange(0, 1000, 20) + 19])
    """)
    assert _gl011_lines(code) == []
    run_snippet(code)


def test_a_guard_that_tests_the_bound_keeps_its_body_inside():
    code = INVERT.replace("{offset}", "ratio").replace("{read}", GUARDED) + textwrap.dedent("""
    assert torch.equal(out[-1], alphas[-1]) and torch.equal(out[0], alphas[20])
    """)
    assert _gl011_lines(code) == []
    run_snippet(code)
