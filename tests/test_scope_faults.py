"""An internal error while analysing one function costs that function only: the rest of the file is still
checked and the fault is one GL000 at the function's line; the flake8 plugin never raises; `gather-lint
shapes` lists the other functions and says what failed without a traceback. And the ops on 0-d tensors that
broke the analysis (squeeze(-1) of a loss) now give torch's shapes."""
import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gather_lint import flake8 as plugin
from gather_lint.api import lint_text
from gather_lint.cli import main
from gather_lint.static import scope_faults
from gather_lint.static.analyzer import explain_shapes
from gather_lint.static.interpreter import Interpreter

ROOT = Path(__file__).resolve().parent.parent

# the report: a 0-d loss squeezed made the file one GL000, and lookup's GL005 was lost
ISSUE = textwrap.dedent("""\
    import torch
    def lookup(features, idx):
        # features: [N, D], idx: [K]
        return torch.gather(features, 0, idx.unsqueeze(1))
    def total_loss(losses, idx):
        loss = torch.stack(losses).sum().squeeze(-1)
        return loss, torch.gather(loss.unsqueeze(0), 0, idx)
    """)


@pytest.fixture
def contained(monkeypatch):
    """Faults given up with their scope, as in a user's run (the suite raises them: conftest)."""
    monkeypatch.delenv(scope_faults.RAISE_VARIABLE, raising=False)


def _broken(monkeypatch, name: str):
    """The interpreter raises whenever it runs the function `name` (with or without a caller's facts)."""
    real = Interpreter.run_function

    def run_function(self, node, *args, **kwargs):
        if getattr(node, "name", None) == name:
            raise IndexError("tuple index out of range")
        return real(self, node, *args, **kwargs)

    monkeypatch.setattr(Interpreter, "run_function", run_function)


def test_the_issue_file_reports_lookups_gl005_and_no_internal_error(torch):
    findings = lint_text(ISSUE, "issue.py").findings
    assert [(f.line, f.code) for f in findings] == [(4, "GL005")]
    namespace = {}
    exec(compile(ISSUE, "issue.py", "exec"), namespace)  # both functions run in torch
    features, idx = torch.randn(10, 4), torch.tensor([3, 1])
    assert namespace["lookup"](features, idx).shape == (2, 1)  # column 0 only, as GL005 says
    loss, picked = namespace["total_loss"]([torch.tensor([1.0]), torch.tensor([2.0])], torch.tensor([0, 0]))
    assert loss.shape == () and picked.tolist() == [3.0, 3.0]


def test_a_broken_function_costs_only_that_function(monkeypatch, contained):
    _broken(monkeypatch, "total_loss")
    findings = lint_text(ISSUE, "issue.py").findings
    assert [(f.line, f.column, f.code) for f in findings] == [(4, 18, "GL005"), (5, 1, "GL000")]
    assert findings[1].message == ("internal error while analysing `total_loss` (IndexError: tuple index out of "
                                   "range); this function was not checked; please report it with the file")


def test_a_fault_under_a_callers_facts_costs_that_call_not_the_caller(monkeypatch, contained):
    code = ISSUE.replace("def lookup(features, idx):\n", "def lookup(features, idx):\n    total_loss([features.sum()], idx)\n")
    assert lint_text(code, "issue.py").findings[0].code == "GL005"  # the call itself is fine
    _broken(monkeypatch, "total_loss")
    findings = lint_text(code, "issue.py").findings
    # lookup is checked past the call; total_loss's own fault is the one reported at its line
    assert [(f.line, f.code) for f in findings] == [(5, "GL005"), (6, "GL000")]
    assert "this function was not checked" in findings[1].message


def test_a_fault_only_under_a_callers_facts_names_the_call(monkeypatch, contained):
    code = ISSUE + "def driver():\n    return total_loss([torch.randn(3).sum()], torch.zeros(2, dtype=torch.long))\n"
    real = Interpreter.run_function

    def run_function(self, node, caller_facts=None):
        if node.name == "total_loss" and caller_facts:
            raise KeyError("boom")
        return real(self, node, caller_facts)

    monkeypatch.setattr(Interpreter, "run_function", run_function)
    findings = lint_text(code, "issue.py").findings
    assert [(f.line, f.code) for f in findings] == [(4, "GL005"), (5, "GL000")]
    assert findings[1].message.startswith("internal error while analysing `total_loss` with the facts of the call "
                                          "at line 9 (KeyError: 'boom'); it was not checked with them")


def test_a_broken_module_level_statement_costs_that_statement(monkeypatch, contained):
    code = ISSUE + "x = torch.zeros(3)\nsizes = x.size()\nif __name__ == '__main__':\n    print(sizes)\n"
    real = Interpreter.stmt

    def stmt(self, node):
        if isinstance(node, ast.Assign) and node.targets[0].id == "sizes":
            raise ValueError("bad\nsecond line")
        return real(self, node)

    monkeypatch.setattr(Interpreter, "stmt", stmt)
    findings = lint_text(code, "issue.py").findings
    assert [(f.line, f.code) for f in findings] == [(4, "GL005"), (9, "GL000")]
    assert findings[1].message == ("internal error while analysing the module-level code at line 9 (ValueError: bad); "
                                   "this code was not checked; please report it with the file")


def test_a_broken_file_wide_check_keeps_the_functions_findings(monkeypatch, contained):
    from gather_lint.static import rolled_labels

    def check_module(tree):
        raise AttributeError("no such node")

    monkeypatch.setattr(rolled_labels, "spelled_in", lambda text: True)
    monkeypatch.setattr(rolled_labels, "check_module", check_module)
    findings = lint_text(ISSUE, "issue.py").findings
    assert [(f.line, f.column, f.code) for f in findings] == [(1, 1, "GL000"), (4, 18, "GL005")]
    assert findings[0].message == ("internal error while analysing this file (AttributeError: no such node); the "
                                   "checks after it were not run; please report it with the file")


def test_the_suite_raises_a_fault_where_it_happened(monkeypatch):
    monkeypatch.setenv(scope_faults.RAISE_VARIABLE, "1")
    _broken(monkeypatch, "total_loss")
    with pytest.raises(IndexError):
        lint_text(ISSUE, "issue.py")


def test_flake8_plugin_reports_the_issue_file_and_never_raises(monkeypatch, contained):
    lines = ISSUE.splitlines(keepends=True)
    found = [text.split()[0] for _, _, text, _ in plugin.GatherLintChecker(ast.parse(ISSUE), lines, "issue.py").run()]
    assert found == ["GL005"]

    def fault(*args, **kwargs):
        raise RuntimeError("outside any function")

    monkeypatch.setattr(plugin, "lint_source", fault)
    reported = list(plugin.GatherLintChecker(ast.parse(ISSUE), lines, "issue.py").run())
    assert [(line, col) for line, col, _, _ in reported] == [(1, 0)]
    assert reported[0][2].startswith("GL000 internal error while analysing this file (RuntimeError: outside any function)")


def test_flake8_run_on_the_issue_file(tmp_path):
    pytest.importorskip("flake8")
    (tmp_path / "issue.py").write_text(ISSUE)
    out = subprocess.run([sys.executable, "-m", "flake8", "--select=GL", "issue.py"], cwd=tmp_path,
                         capture_output=True, text=True)
    assert "Traceback" not in out.stdout + out.stderr
    assert out.stdout.startswith("issue.py:4:18: GL005 ")


def test_shapes_on_the_issue_file(tmp_path):
    (tmp_path / "issue.py").write_text(ISSUE)
    out = subprocess.run([sys.executable, "-m", "gather_lint", "shapes", str(tmp_path / "issue.py")], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert [line.split() for line in out.stdout.splitlines() if line.split()[:2] == ["6", "loss"]] == \
        [["6", "loss", "[]", "?", "inferred", "from", "ops"]]


def test_shapes_lists_the_other_functions_and_names_the_broken_one(tmp_path, monkeypatch, capsys, contained):
    (tmp_path / "issue.py").write_text(ISSUE)
    _broken(monkeypatch, "total_loss")
    status = main(["shapes", str(tmp_path / "issue.py")])
    out = capsys.readouterr()
    assert status == 1
    assert "issue.py:2 lookup" in out.out and "total_loss" not in out.out
    assert out.err.strip().endswith("issue.py:5: internal error while analysing `total_loss` (IndexError: tuple index "
                                    "out of range); this function was not checked; please report it with the file")
    assert "Traceback" not in out.err


def test_shapes_says_a_fault_outside_any_function_plainly(tmp_path, monkeypatch, capsys):
    (tmp_path / "issue.py").write_text(ISSUE)
    from gather_lint.static import analyzer

    def fault(*args, **kwargs):
        raise RuntimeError("outside any function")

    monkeypatch.setattr(analyzer, "explain_shapes", fault)
    assert main(["shapes", str(tmp_path / "issue.py")]) == 1
    err = capsys.readouterr().err
    assert "internal error while analysing this file (RuntimeError: outside any function)" in err
    assert "Traceback" not in err


def test_torchs_own_op_samples_are_checked(torch):
    """torch/testing/_internal/common_methods_invocations.py squeezes and reduces 0-d tensors throughout;
    the whole file was one GL000."""
    path = Path(torch.__file__).parent / "testing" / "_internal" / "common_methods_invocations.py"
    if not path.exists():
        pytest.skip("this torch build has no testing/_internal")
    findings = lint_text(path.read_text(encoding="utf-8"), "common_methods_invocations.py").findings
    assert [f for f in findings if f.code == "GL000"] == []


# ops valid on a 0-d tensor, where dims 0 and -1 both name its one virtual dim: (the expression, the names it binds)
ZERO_D = [
    ("y = x.squeeze(-1)", "y"), ("y = x.squeeze(0)", "y"), ("y = x.squeeze()", "y"), ("y = x.transpose(0, 0)", "y"),
    ("y = x.transpose(-1, 0)", "y"), ("y = x.movedim(0, -1)", "y"), ("y = x.unsqueeze(0)", "y"),
    ("y = x.unsqueeze(-1)", "y"), ("y = x.sum(0)", "y"), ("y = x.sum(-1, keepdim=True)", "y"),
    ("y = x.mean(dim=0)", "y"), ("y = x.flatten()", "y"), ("y = x.argmax(0)", "y"), ("y = x.argsort()", "y"),
    ("y, i = x.max(0)", "y i"), ("y, i = x.min(-1, keepdim=True)", "y i"), ("y, i = x.topk(1, dim=0)", "y i"),
    ("y, i = x.sort()", "y i"), ("y, i = x.kthvalue(1, 0)", "y i"), ("y = torch.stack([x, x], -1)", "y"),
    ("y = x.norm(2)", "y"), ("y = x.norm(2, 0)", "y"), ("y = x.norm(2, keepdim=True)", "y"),
]


@pytest.mark.parametrize("line, names", ZERO_D, ids=[line for line, _ in ZERO_D])
def test_ops_on_a_0d_tensor_give_torchs_shapes(line, names, torch):
    code = f"import torch\ndef f():\n    x = torch.tensor(2.5)\n    {line}\n"
    stated = {name: fact for _, _, trace in explain_shapes(code, "zero_d.py") for _, name, fact in trace}
    ran = {"torch": torch}
    exec(f"x = torch.tensor(2.5)\n{line}\n", ran)
    for name in names.split():
        assert stated[name].shape is not None and tuple(stated[name].shape.dims) == tuple(ran[name].shape), name
