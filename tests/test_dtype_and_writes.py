"""Facts from constructors and data paths, and writes that corrupt what they write into.

Every program runs in torch first (the oracle: it raises, or computes what the test says), then
through the linter: reported on the marked line (`# expect`), silent for the correct form.
"""
import textwrap

import pytest

from .conftest import lint


def _run(program: str):
    scope: dict = {"__name__": "__main__"}
    exec(compile(program, "<program>", "exec"), scope)
    return scope


def _expected_lines(program: str):
    return [n for n, text in enumerate(program.splitlines(), 1) if text.rstrip().endswith("# expect")]


def _program(template: str, use: str = "") -> str:
    return textwrap.dedent(template).replace("{use}", use)


# -- torch.linspace is 1-d whatever its step count ---------------------------------------------------

LINSPACE_HELPER = """
import torch


def bin_values(actions, low, high, n_bins):
    centres = torch.linspace(low, high, n_bins)
    table = centres.expand(actions.shape[0], n_bins)
    return table.gather(-1, actions{use})  # expect


def run(bins):
    picks = torch.randint(0, bins, (4,))
    return bin_values(picks, -1.0, 1.0, bins)


if __name__ == "__main__":
    RESULT = run(7)
"""

LINSPACE_BUFFER = """
import sys

import torch
import torch.nn as nn


class Quantizer(nn.Module):
    def __init__(self, lo, hi, levels):
        super().__init__()
        self.register_buffer("centres", torch.linspace(lo, hi, steps=levels))

    def forward(self, codes):
        table = self.centres.unsqueeze(0).expand(codes.shape[0], -1)
        return torch.gather(table, 1, codes{use})  # expect


if __name__ == "__main__":
    q = Quantizer(-1.0, 1.0, len(sys.argv) + 4)
    RESULT = q(torch.randint(0, 5, (3,)))
"""


@pytest.mark.parametrize("template", [LINSPACE_HELPER, LINSPACE_BUFFER], ids=["helper", "module-buffer"])
def test_a_one_d_code_gathered_from_an_expanded_linspace_table(template, torch):
    bad, good = _program(template), _program(template, ".unsqueeze(-1)")
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        _run(bad)
    assert _run(good)["RESULT"].shape[-1] == 1
    assert [(f.code, f.line) for f in lint(bad)] == [("GL001", n) for n in _expected_lines(bad)]
    assert lint(good) == []
