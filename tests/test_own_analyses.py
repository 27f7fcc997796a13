"""Which functions run an analysis of their own (own_analyses.py): a function whose lines hold a site, and
its callers, reached by name, by method, by class or through an attribute bound to an instance; never at
the price of a finding."""
import ast
import glob
import os

import pytest

from gather_lint.static import own_analyses
from gather_lint.static.analyzer import lint_source
from gather_lint.static.tree_walk import function_defs

from .bug_sets import PROJECT, case_dirs
from .snippets import expected_lines, run_program

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Net.forward names no op: the shapes it makes reach Head.forward through `self.head`, bound in __init__
PROGRAM = '''import torch
import torch.nn as nn


class Head(nn.Module):
    def forward(self, feats, idx):
        return feats.gather(0, idx.unsqueeze(1))  # expect


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = Head()

    def forward(self, feats, picks):
        feats = feats.reshape(-1, 16)
        idx = picks.long().view(3)
        return self.head(feats, idx)

    def describe(self):
        return "a head over feature rows"


def count_rows(x):
    return len(x)


if __name__ == "__main__":
    feats = torch.arange(80.0).view(5, 16)
    picks = torch.tensor([4.0, 0.0, 2.0])
    RESULT = (Net()(feats, picks), feats, picks.long())
'''


def _chosen(program: str, called_names=("head", "len", "super", "__init__")) -> list:
    """(name, line) of the functions chosen in `program`, a site being a gather."""
    tree = ast.parse(program)
    nodes = own_analyses.chosen(list(tree.body), program, lambda function, block: "gather(" in function,
                                lambda text: {n for n in called_names if n + "(" in text})
    return sorted((node.name, node.lineno) for node in nodes)


def test_callers_reached_through_an_instance_attribute_are_chosen_and_the_rest_are_not():
    # Head.forward holds the site; Net.forward calls it through self.head; describe and count_rows do neither
    assert _chosen(PROGRAM) == [("forward", 6), ("forward", 15)]


def test_a_subclass_instance_reaches_its_parents_method():
    program = PROGRAM.replace("self.head = Head()", "self.head = SharpHead()") + "\n\nclass SharpHead(Head):\n    pass\n"
    assert ("forward", 15) in _chosen(program)


def test_a_function_stored_under_an_attribute_is_reached_through_it():
    program = ("def token_loss(logits, ids):\n    return logits.gather(-1, ids)\n\n\n"
               "class Model:\n    def __init__(self):\n        self.loss = token_loss\n\n"
               "    def step(self, logits, ids):\n        return self.loss(logits, ids)\n")
    assert _chosen(program, ("loss",)) == [("step", 9), ("token_loss", 1)]


def test_the_finding_through_the_instance_is_reported_and_torch_reads_only_column_zero():
    findings = lint_source(PROGRAM, "net.py").findings
    assert [(f.line, f.code) for f in findings] == [(line, "GL005") for line in expected_lines(PROGRAM)]
    out, feats, idx = run_program(PROGRAM)
    assert out.shape == (3, 1) and torch_equal(out[:, 0], feats[idx, 0])  # column 0 of each picked row


def torch_equal(a, b) -> bool:
    return bool((a == b).all())


def _all_functions(tops, text, holds_site, called_names, lines=None):
    return [node for top in tops for node in function_defs(top)]


def _programs():
    paths = sorted(glob.glob(os.path.join(ROOT, "examples", "*.py")))
    for case in case_dirs(PROJECT):
        paths += [os.path.join(case, name) for name in ("bug.py", "fixed.py") if os.path.isfile(os.path.join(case, name))]
    return paths


def test_choosing_functions_loses_no_finding(monkeypatch):
    """Every bundled example and every project bug case (bug.py and fixed.py): the same findings as when every
    function runs its own analysis."""
    paths = _programs()
    texts = {path: open(path, encoding="utf-8").read() for path in paths}
    chosen = {path: _seen(lint_source(text, path).findings) for path, text in texts.items()}
    monkeypatch.setattr(own_analyses, "chosen", _all_functions)
    every = {path: _seen(lint_source(text, path).findings) for path, text in texts.items()}
    assert len(paths) > 200 and chosen == every


def _seen(findings):
    return [(f.line, f.column, f.code, f.message) for f in findings]


@pytest.mark.parametrize("holds", [True, False])
def test_all_or_none_holding_a_site_needs_no_closure(holds):
    program = "def a():\n    return b()\n\n\ndef b():\n    return 1\n"
    tree = ast.parse(program)
    nodes = own_analyses.chosen(list(tree.body), program, lambda f, b: holds, lambda t: {"b"} if "b(" in t else set())
    assert len(nodes) == (2 if holds else 0)


def test_a_method_is_reached_through_self_only_from_its_own_class_family():
    program = ("class A:\n    def pick(self, x, i):\n        return x.gather(1, i)\n\n    def run(self, x, i):\n"
               "        return self.pick(x, i)\n\n\nclass B:\n    def run(self, x, i):\n        return self.pick(x, i)\n\n"
               "    def pick(self, x, i):\n        return x[i]\n\n\nclass C(A):\n    def go(self, x, i):\n"
               "        return self.pick(x, i)\n")
    # B.run calls a `pick` of its own, which holds no site; C inherits A's
    assert _chosen(program, ()) == [("go", 18), ("pick", 2), ("run", 5)]


def test_a_library_instance_is_reached_through_its_attribute_only_when_built_from_literals():
    library = PROGRAM[:PROGRAM.index('if __name__')]
    assert _chosen(library) == [("forward", 6), ("forward", 15)]  # Head(): its forward runs with Net's facts
    from_config = library.replace("self.head = Head()", "self.head = Head(config)")
    assert _chosen(from_config) == [("forward", 6)]  # an instance of unknown arguments runs no forward
    assert _chosen(from_config + PROGRAM[PROGRAM.index('if __name__'):]) == [("forward", 6), ("forward", 15)]
