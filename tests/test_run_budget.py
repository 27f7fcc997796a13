"""A generator script calls its helpers from nested loops over literal lists: every iteration brings new
integer facts, so re-running the helpers under each caller's facts costs the product of the lists' lengths
(a real kernel generator took 21 s this way). Each function runs under at most `MAX_RUNS_PER_FUNCTION`
distinct caller facts per module; later calls take its own result. The findings that the first runs make
are still reported, and torch shows the one here: the gather reads only column 0."""
import textwrap

import pytest

from gather_lint.static import calls
from gather_lint.static.interpreter import Interpreter

from .conftest import lint
from .snippets import run_snippet

torch = pytest.importorskip("torch")

GENERATOR = """
import torch

def pick(table, rows):
    return table.gather(0, rows.unsqueeze(1))

def emit(n, width, unroll):
    table = torch.randn(n, width)
    rows = torch.randint(0, n, (n,))
    return pick(table, rows), unroll

def search():
    out = []
    for n in [2, 3, 4, 5, 6, 7]:
        for width in [8, 16, 32, 64, 128]:
            for unroll in [1, 2, 4, 8]:
                out.append(emit(n, width, unroll))
    return out

if __name__ == "__main__":
    results = search()
"""


def _runs(monkeypatch, code):
    counted = []
    original = Interpreter.run_function

    def counting(self, node, caller_facts=None):
        counted.append(node.name)
        return original(self, node, caller_facts)

    monkeypatch.setattr(Interpreter, "run_function", counting)
    found = [(v.code, v.line) for v in lint(textwrap.dedent(code))]
    return found, counted


def test_nested_literal_loops_run_each_helper_a_bounded_number_of_times(monkeypatch):
    found, counted = _runs(monkeypatch, GENERATOR)
    assert ("GL005", 5) in found
    iterations = 6 * 5 * 4
    for name in ("emit", "pick"):
        assert counted.count(name) <= calls.MAX_RUNS_PER_FUNCTION + 2 < iterations  # + own analysis, driver run


def test_the_finding_is_what_torch_does():
    scope = run_snippet(GENERATOR.replace("results = search()", "results = [emit(4, 8, 1)]"))
    picked, _ = scope["results"][0]
    assert picked.shape == (4, 1)  # one column per row: only column 0 of the table is read
