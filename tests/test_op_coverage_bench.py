"""benchmarks/op_coverage.py and the interpreter's census it reads: the calls counted are those the analysis
evaluates, each once, and an op is missing only where no entry ran (not where an entry found the result
unknown). The census is off unless started."""
import textwrap

import pytest

from gather_lint.static import op_census
from gather_lint.api import lint_text

from . import benchmark_scripts

SOURCE = textwrap.dedent("""
    import torch
    import torch.nn.functional as F

    def f(x: "Float[Tensor, 'B L D']", idx, w):
        y = x.view(-1, 4)                 # an entry with a result
        n = w.dim()                       # an entry, w unknown: not counted (unknown receiver)
        z = x.data_ptr()                  # no entry
        s = torch.istft(x, 4)             # no entry
        t = torch.sum(w, dim=1)           # w unknown: counted apart
        k = F.kl_div(input=w, target=x)   # the same, by keyword
        u = F.softmax(x, dim=-1)
        for _ in range(3):
            v = x.data_ptr()              # evaluated more than once: one site
        return torch.gather(x, 1, idx)
""")


@pytest.fixture
def census():
    counted = op_census.start()
    counted.file = "m.py"
    try:
        yield counted
    finally:
        op_census.stop()


def outcomes(census):
    return {(form, name): outcome for (_, _, _, form, name), outcome in census.sites.items()}


def test_the_census_counts_each_evaluated_site_once(census):
    lint_text(SOURCE, "m.py")
    seen = outcomes(census)
    assert seen[("method", "view")] == op_census.COVERED
    assert seen[("method", "data_ptr")] == op_census.MISSING
    assert seen[("torch", "istft")] == op_census.MISSING
    assert seen[("torch", "sum")] == op_census.UNKNOWN_INPUT
    assert seen[("F", "kl_div")] == op_census.UNKNOWN_INPUT
    assert seen[("F", "softmax")] == op_census.COVERED
    assert seen[("torch", "gather")] == op_census.COVERED
    assert ("method", "dim") not in seen
    assert sum(1 for key in census.sites if key[4] == "data_ptr") == 2  # two sites, the loop's counted once


def test_an_entry_with_an_unknown_result_covers_its_call_apart(census, capsys):
    lint_text("import torch\ndef f(w):\n    n = w.float().dim()\n    return torch.gather(w, 1, w)\n", "m.py")
    assert outcomes(census)[("method", "dim")] == op_census.UNKNOWN_RESULT
    shown = benchmark_scripts.load("op_coverage").table("t", census.sites, {"torch": {"gather"}, "F": set(),
                                                                             "method": {"float", "dim"}}, 1, 0.0, 5)
    assert "covered 2/2 = 100.0%   (of them the entry found the result unknown: 1;" in shown


def test_the_census_is_off_unless_started():
    assert op_census.active is None
    lint_text(SOURCE, "m.py")
    assert op_census.active is None


def test_the_table_names_coverage_and_the_missing_ops(census):
    bench = benchmark_scripts.load("op_coverage")
    lint_text(SOURCE, "m.py")
    names = {"torch": {"istft", "sum", "gather"}, "F": {"softmax"}, "method": {"view", "data_ptr"}}
    shown = bench.table("tree", census.sites, names, 1, 0.0, 5)
    assert "covered 3/6 = 50.0%" in shown and "unknown input, not counted: 1" in shown
    assert "2  .data_ptr()" in shown and "1  torch.istft" in shown


def test_a_missing_tree_exits_2_with_a_message(capsys, tmp_path):
    bench = benchmark_scripts.load("op_coverage")
    assert bench.main([str(tmp_path / "absent")]) == 2
    assert "is not a directory" in capsys.readouterr().err
