"""Facts from a caller only add: a `__main__` driver that calls a function never takes away a finding the
function's own facts give, nor changes its message or its fix; a finding only a caller's facts give says
so, names each call once, and is fixed (if at all) in the function's own names, right for every caller.
Every claim about torch is checked by running the code."""
import ast
import contextlib
import io
import os
import textwrap

import pytest

from gather_lint import fixes
from gather_lint.api import lint_text
from gather_lint.rules import ALL_RULES, is_static
from gather_lint.static.fix_names import BoundNames

from .bug_sets import SHARED, case_dirs
from .test_fixes_on_bug_set import MAIN, _reference_helpers
from .test_rule_examples import same


def findings(text: str) -> dict:
    """{(code, line, column): finding}"""
    return {(f.code, f.line, f.column): f for f in lint_text(text, "driven.py").findings}


def fixed(text: str):
    """(the text with every fix applied, --unsafe-fixes included; the findings fixed)."""
    return fixes.apply(text, lint_text(text, "driven.py").findings, unsafe=True,
                       lint=lambda candidate: lint_text(candidate, "driven.py").findings)


def run_as_script(text: str) -> dict:
    """Run `text` as `python file.py` would (its `__main__` block too), in this process; its globals."""
    scope = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(text, "driven.py", "exec"), scope)
    scope["printed"] = out.getvalue()
    return scope


def same_findings(with_driver: dict, without: dict) -> None:
    """Every finding the function's own facts give is there with the driver, with its message and fix."""
    for key, alone in without.items():
        assert key in with_driver, f"the driver took away {key}: {alone.message}"
        driven = with_driver[key]
        assert (driven.message, driven.fix, driven.help) == (alone.message, alone.fix, alone.help), key


# ----- the reported cases ---------------------------------------------------------------------------

HEADLINE = '''import torch

def select_class_features(features, class_indices):
    # features: (num_classes, feat_dim), class_indices: (batch,)
    return torch.gather(features, dim=0, index=class_indices.unsqueeze(1))
'''
HEADLINE_DRIVER = '''
if __name__ == "__main__":
    features = torch.randn(10, 128)
    class_indices = torch.tensor([3, 7, 1, 9, 2])
    rows = select_class_features(features, class_indices)
'''


@pytest.mark.parametrize("driven", [False, True], ids=["alone", "with-driver"])
def test_headline_bug_keeps_its_finding_and_fix_in_the_functions_names(driven, torch):
    text = HEADLINE + (HEADLINE_DRIVER if driven else "")
    (finding,) = lint_text(text, "driven.py").findings
    assert (finding.code, finding.line) == ("GL005", 5)
    assert "facts from" not in finding.message  # the function's own comment decides it
    assert "`.expand(-1, features.size(1))`" in finding.help and "128" not in finding.message
    assert fixes.held_back([finding], unsafe=False) == 1
    after, done = fixed(text)
    assert [f.code for f in done] == ["GL005"]
    assert "class_indices.unsqueeze(1).expand(-1, features.size(1))" in after
    scope = run_as_script(after if driven else after + HEADLINE_DRIVER)
    expected = torch.stack([scope["features"][i] for i in scope["class_indices"]])
    assert same(scope["rows"], expected)
    before = run_as_script(HEADLINE + HEADLINE_DRIVER)
    assert before["rows"].shape == (5, 1)  # what torch silently does without the fix: column 0 only


ROWS = '''import torch

def rows(x, idx):
    # x: [N, D], idx: [K]
    return x.gather(0, idx)
'''
ROWS_DRIVER = '''
if __name__ == "__main__":
    x = torch.randn(6, 4)
    idx = torch.tensor([1, 3])
    picked = rows(x, idx)
'''


@pytest.mark.parametrize("driven", [False, True], ids=["alone", "with-driver"])
def test_gl001_whole_rows_fix_is_sized_by_the_input_not_the_drivers_literal(driven, torch):
    text = ROWS + (ROWS_DRIVER if driven else "")
    (finding,) = lint_text(text, "driven.py").findings
    assert (finding.code, finding.line) == ("GL001", 5) and "facts from" not in finding.message
    assert "idx.unsqueeze(-1).expand(-1, x.size(1))" in finding.help
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        run_as_script(ROWS + ROWS_DRIVER)
    after, done = fixed(text)
    assert [f.code for f in done] == ["GL001"]
    scope = run_as_script(after if driven else after + ROWS_DRIVER)
    assert same(scope["picked"], scope["x"][scope["idx"]])


CHAIN = '''import torch

def pick(log_probs, ids, dim):
    return log_probs.gather(dim, ids.unsqueeze(-1)).squeeze(-1)

def score(model_logits):
    batch, seq_len, vocab = 4, 12, 500
    logits = torch.randn(batch, seq_len, vocab)
    ids = torch.randint(0, vocab, (batch, seq_len))
    return pick(logits.log_softmax(-1), ids, 1)
'''
CHAIN_DRIVERS = {
    "main-block": '''
if __name__ == "__main__":
    print(score(None).shape)
''',
    "module-level": '''
result = score(None)
''',
}


@pytest.mark.parametrize("form", sorted(CHAIN_DRIVERS))
def test_a_driver_calling_the_caller_does_not_hide_the_callees_finding(form, torch):
    """`__main__` -> score -> pick: the driver's call to score brings no facts, and the run it makes only
    computes a result; it must not stand in for score's own run, which checks pick with its tensors."""
    alone, driven = findings(CHAIN), findings(CHAIN + CHAIN_DRIVERS[form])
    assert list(alone) == [("GL004", 4, 22)]
    same_findings(driven, alone)
    assert list(driven) == list(alone)
    assert alone[("GL004", 4, 22)].message.endswith("(facts from the call at line 10)")
    with pytest.raises(RuntimeError, match="out of bounds"):
        run_as_script(CHAIN + CHAIN_DRIVERS[form])


NESTED = '''import torch

def select(features, class_indices):
    return torch.gather(features, dim=0, index=class_indices.unsqueeze(1))

def inner(f, c):
    return select(f, c)

if __name__ == "__main__":
    features = torch.randn(10, 128)
    class_indices = torch.tensor([3, 7, 1, 9, 2])
    rows = inner(features, class_indices)
'''


def test_a_finding_only_a_callers_facts_give_says_so_once_and_is_fixed_in_the_functions_names(torch):
    (finding,) = lint_text(NESTED, "driven.py").findings
    assert finding.code == "GL005"
    assert finding.message.endswith("(facts from the call at line 7)")  # the call into select, named once
    assert finding.message.count("facts from") == 1
    assert "`.expand(-1, features.size(1))`" in finding.help and ".expand(-1, 128)" not in finding.message
    after, done = fixed(NESTED)
    assert [f.code for f in done] == ["GL005"] and "expand(-1, features.size(1))" in after
    scope = run_as_script(after)
    assert same(scope["rows"], torch.stack([scope["features"][i] for i in scope["class_indices"]]))
    assert run_as_script(NESTED)["rows"].shape == (5, 1)  # unfixed: column 0 only, silently


TWO_CALLERS = '''import torch

def select(features, index):
    return torch.gather(features, 0, index)

if __name__ == "__main__":
    features = torch.randn(10, 128)
    ids = torch.tensor([3, 7, 1])
    column = select(features, ids.unsqueeze(1))
    whole = select(features, ids.unsqueeze(1).expand(-1, 128))
'''


def test_a_callers_finding_gets_no_fix_when_another_caller_checked_the_site_without_it(torch):
    """Only the first call's index is [K, 1]; the fix would edit select() for both calls, and the second
    needs none: which fix is right for every caller the shapes do not say, so none is offered."""
    (finding,) = lint_text(TWO_CALLERS, "driven.py").findings
    assert (finding.code, finding.line) == ("GL005", 4)
    assert finding.message.endswith("(facts from the call at line 9)") and finding.fix is None
    scope = run_as_script(TWO_CALLERS)
    assert scope["column"].shape == (3, 1) and scope["whole"].shape == (3, 128)


NAMED_ON_ONE_LINE = {
    "comment": '''import torch

def pick(a, b):
    # a: [B, T], b: [B]
    return a.gather(1, b)
''',
    "docstring": '''import torch

def pick(a, b):
    """One entry per row.

    a: (B, T), b: (B,)
    """
    return a.gather(1, b)
''',
}
PICK_DRIVER = '''
if __name__ == "__main__":
    out = pick(torch.randn(4, 6), torch.tensor([0, 5, 2, 1]))
'''


@pytest.mark.parametrize("style", sorted(NAMED_ON_ONE_LINE))
@pytest.mark.parametrize("driven", [False, True], ids=["alone", "with-driver"])
def test_several_tensors_named_on_one_line_give_each_its_shape(style, driven, torch):
    text = NAMED_ON_ONE_LINE[style] + (PICK_DRIVER if driven else "")
    (finding,) = lint_text(text, "driven.py").findings
    assert finding.code == "GL001" and "facts from" not in finding.message
    assert "`b` [B]" in finding.message and "`a` [B, T]" in finding.message
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        run_as_script(NAMED_ON_ONE_LINE[style] + PICK_DRIVER)
    after, _ = fixed(text)
    scope = run_as_script(after if driven else after + PICK_DRIVER)
    assert scope["out"].shape == (4,)


CENTER_LOSS = '''import torch
import torch.nn as nn


class CenterLoss(nn.Module):
    def __init__(self, num_classes: int, feat_dim: int):
        super().__init__()
        self.centers = nn.Parameter(torch.randn(num_classes, feat_dim))

    def forward(self, feats, labels):
        # feats: [B, feat_dim], labels: [B]
        picked = self.centers.gather(0, labels.unsqueeze(1))
        return picked


if __name__ == "__main__":
    crit = CenterLoss(num_classes=10, feat_dim=64)
    labels = torch.randint(0, 10, (32,))
    picked = crit(torch.randn(32, 64), labels)
'''


def test_a_fix_never_names_a_variable_the_function_does_not_bind(torch):
    """`feat_dim` is __init__'s parameter: in forward the fix reads the size from the tensor itself."""
    (finding,) = lint_text(CENTER_LOSS, "driven.py").findings
    assert finding.code == "GL005" and "feat_dim)" not in finding.help
    assert "`.expand(-1, self.centers.size(1))`" in finding.help
    assert fixes.held_back([finding], unsafe=False) == 1
    after, done = fixed(CENTER_LOSS)
    assert [f.code for f in done] == ["GL005"]
    scope = run_as_script(after)
    assert same(scope["picked"], scope["crit"].centers[scope["labels"]])
    tree = ast.parse(CENTER_LOSS)
    names = BoundNames(tree, ())
    assert not names.all_bound({"feat_dim"}, 12) and names.all_bound({"feat_dim"}, 8)
    assert names.all_bound({"labels", "torch", "self", "len"}, 12)


# ----- every real bug, with and without its driver -------------------------------------------------------

SHARED_CASES = case_dirs(SHARED) if os.path.isdir(os.path.join(SHARED, "cases")) else []


@pytest.mark.skipif(not SHARED_CASES, reason="no ../shared/bugs beside this checkout")
@pytest.mark.parametrize("case", SHARED_CASES, ids=[os.path.basename(c) for c in SHARED_CASES])
def test_real_bug_with_and_without_its_driver(case, torch):
    """Every case already ends in a `__main__` driver that calls the buggy code, so the comparison is with
    the driver removed: the functions alone have only their own facts (comments, annotations, docstrings,
    constructors inside them). Whatever they give must be there, unchanged, with the driver (which may add
    findings its tensors decide). Where the fixes apply, both forms, fixed and run with fixed.py's checking
    driver, print 'ok'."""
    with open(os.path.join(case, "bug.py"), encoding="utf-8") as handle:
        bug = handle.read()
    with open(os.path.join(case, "fixed.py"), encoding="utf-8") as handle:
        good = handle.read()
    assert bug.count(MAIN) == 1 and good.count(MAIN) == 1
    head = bug.split(MAIN)[0]
    same_findings(findings(bug), findings(head))
    checking_driver = good.split(MAIN)[1]
    for text in (bug, head):
        after, done = fixed(text)
        if not done:
            continue
        ours = after.split(MAIN)[0]
        program = ours + _reference_helpers(good.split(MAIN)[0], ours, checking_driver, head) + MAIN + checking_driver
        torch.manual_seed(0)
        assert run_as_script(program)["printed"].strip().splitlines()[-1].startswith("ok"), after


# ----- every bad example of the rules, as a function called by a driver -------------------------------------

EXAMPLES = [(rule, i, ex) for rule in ALL_RULES if is_static(rule) for i, ex in enumerate(rule.EXAMPLES)]
EXAMPLE_IDS = [f"{rule.CODE}-{i}" for rule, i, _ in EXAMPLES]
EXAMPLE_DRIVER = f"\n\n{MAIN}\n    out, expected = example()\n"


def as_function(snippet: str) -> str:
    """The example's imports, then the rest of it as `example()`, returning `out` and `expected`."""
    code = textwrap.dedent(snippet).strip("\n")
    tree = ast.parse(code)
    lines = code.splitlines()
    imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    head = max((n.end_lineno for n in imports), default=0)
    assert all(n.end_lineno <= head for n in imports), "imports after code"
    body = textwrap.indent("\n".join(lines[head:]), "    ")
    return "\n".join(lines[:head]) + f"\n\n\ndef example():\n{body}\n    return out, expected\n"


@pytest.mark.parametrize("rule,i,example", EXAMPLES, ids=EXAMPLE_IDS)
def test_rule_example_with_and_without_a_driver(rule, i, example, torch):
    """A module-level example becomes a function; a driver that calls it brings no facts, so the findings
    must be the same, fixes included. Where the function's finding has a fix, both forms, fixed, give the
    example's intended result in torch."""
    function = as_function(example.bad)
    alone, driven = findings(function), findings(function + EXAMPLE_DRIVER)
    same_findings(driven, alone)
    assert set(driven) == set(alone)
    if not any(f.fix for f in alone.values() if f.code == rule.CODE) or not rule.FIX:
        return
    for text in (function, function + EXAMPLE_DRIVER):
        after, done = fixed(text)
        assert rule.CODE in [f.code for f in done], text
        torch.manual_seed(i)
        scope = run_as_script(after if MAIN in after else after + EXAMPLE_DRIVER)
        assert same(scope["out"], scope["expected"]), after


def as_handed_function(snippet: str):
    """The example as `example(a, b)`, its leading tensors with a shape comment (`x = torch.randn(4, 5)  # [B, D]`)
    handed in by a driver that builds them, their comments kept in the function (`# x: [B, D]`):
    (the function, its driver), or None when the example starts with no such tensor."""
    code = textwrap.dedent(snippet).strip("\n")
    tree = ast.parse(code)
    lines = code.splitlines()
    imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    head = max((n.end_lineno for n in imports), default=0)
    handed, comments, made = [], [], []
    for node in tree.body[len(imports):]:
        comment = lines[node.lineno - 1].partition("#")[2].strip() if node.lineno == node.end_lineno else ""
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and comment[:1] in "[(" and comment):
            break
        name = node.targets[0].id
        handed.append(name)
        comments.append(f"    # {name}: {comment}")
        made.append(f"    {ast.get_source_segment(code, node)}")
    if not handed:
        return None
    rest = node.lineno - 1
    body = "\n".join(comments) + "\n" + textwrap.indent("\n".join(lines[rest:]), "    ")
    function = "\n".join(lines[:head]) + f"\n\n\ndef example({', '.join(handed)}):\n{body}\n    return out, expected\n"
    driver = f"\n\n{MAIN}\n" + "\n".join(made) + f"\n    out, expected = example({', '.join(handed)})\n"
    return function, driver


HANDED = [(rule, i, ex) for rule, i, ex in EXAMPLES if as_handed_function(ex.bad) is not None]


@pytest.mark.parametrize("rule,i,example", HANDED, ids=[f"{rule.CODE}-{i}" for rule, i, _ in HANDED])
def test_rule_example_with_its_tensors_handed_in_by_a_driver(rule, i, example, torch):
    """The example's leading commented tensors become parameters that a driver builds and hands in: the
    function alone knows their shapes from its comments, the driver adds their sizes. The driver's facts
    only add (the function's own findings stay, with their messages and fixes) and the example is still
    flagged; where a fix is offered, the fixed program gives the intended result in torch."""
    function, driver = as_handed_function(example.bad)
    alone, driven = findings(function), findings(function + driver)
    same_findings(driven, alone)
    assert rule.CODE in [key[0] for key in driven], function + driver
    if not rule.FIX:
        return
    for text, found in ((function, alone), (function + driver, driven)):
        if not any(f.fix for f in found.values() if f.code == rule.CODE):
            continue
        after, done = fixed(text)
        assert rule.CODE in [f.code for f in done], text
        torch.manual_seed(i)
        scope = run_as_script(after if MAIN in after else after + driver)
        assert same(scope["out"], scope["expected"]), after


PASSED_DIM = '''import torch

def scatter_sum(src, index, dim=0, dim_size=None):
    dim_size = int(index.max()) + 1 if dim_size is None else dim_size
    out = src.new_zeros(dim_size, src.size(-1))
    return out.scatter_add_(dim, index.unsqueeze(-1).expand_as(src), src)

def scatter_mean(src, index, dim=0, dim_size=None):
    total = scatter_sum(src, index, dim, dim_size)
    count = scatter_sum(torch.ones_like(src), index, dim, dim_size)
    return total / count.clamp(min=1)

def pool(x, batch, size):
    return scatter_mean(x, batch, size)

if __name__ == "__main__":
    out = pool(torch.randn(5, 4), torch.tensor([0, 0, 1, 1, 2]), 3)
'''


def test_a_dim_passed_in_names_the_call_that_brought_facts_to_where_it_is_reported(torch):
    """GL002 moves from the helper's scatter_add_ to `scatter_mean(x, batch, size)`, where `size` goes to
    `dim`: the calls inside the helpers brought no facts to that line; the driver's call (line 17) did."""
    (finding,) = lint_text(PASSED_DIM, "driven.py").findings
    assert (finding.code, finding.line) == ("GL002", 14)
    assert finding.message.endswith("parameter `dim` (facts from the call at line 17)"), finding.message
    with pytest.raises(IndexError, match="Dimension out of range"):
        run_as_script(PASSED_DIM)


def test_the_calls_a_notebook_finding_names_are_counted_in_their_cells():
    import json

    cells = ["import torch\n",
             "def select(f, c):\n    return torch.gather(f, 0, c.unsqueeze(1))\n",
             "a = select(torch.randn(10, 128), torch.tensor([3, 1]))\nb = select(torch.randn(6, 64), torch.tensor([2]))\n"]
    notebook = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                           "source": c.splitlines(keepends=True)} for c in cells],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (finding,) = lint_text(json.dumps(notebook), "driven.ipynb").findings
    assert finding.code == "GL005" and finding.path == "driven.ipynb:cell 2"
    assert finding.message.endswith("(facts from the calls at line 1 of cell 3 and line 2 of cell 3)"), finding.message
