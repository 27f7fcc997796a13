"""Fixes on the sets of real bug patterns (../shared/bugs beside the repository, benchmarks/bugs), when present:
each bug.py that gather-lint fixes whole (no finding left), run with its fixed.py's checking driver, must print 'ok'.
A fix that removes the finding but computes something else fails here."""
import ast
import os
import textwrap

import pytest

from gather_lint import fixes
from gather_lint.api import lint_text

from .bug_sets import run_script

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETS = [os.path.join(ROOT, "..", "shared", "bugs", "cases"), os.path.join(ROOT, "benchmarks", "bugs", "cases")]
CASES = [os.path.join(d, n) for d in SETS if os.path.isdir(d) for n in sorted(os.listdir(d))
         if os.path.isfile(os.path.join(d, n, "fixed.py"))]
MAIN = 'if __name__ == "__main__":'


@pytest.mark.skipif(not CASES, reason="no bug set beside or inside this checkout")
@pytest.mark.parametrize("case", CASES, ids=[os.path.basename(c) for c in CASES])
def test_fixed_bug_passes_the_cases_own_check(case, tmp_path, torch):
    with open(os.path.join(case, "bug.py"), encoding="utf-8") as handle:
        bug = handle.read()
    with open(os.path.join(case, "fixed.py"), encoding="utf-8") as handle:
        good = handle.read()
    path = str(tmp_path / "bug.py")
    fixed, done = fixes.apply(bug, lint_text(bug, path).findings, unsafe=True,
                              lint=lambda text: lint_text(text, path).findings)
    if not done:
        pytest.skip("no fix applied")
    if lint_text(fixed, path).findings:  # a finding without an automatic fix (`x[ids] += v` of an untyped v)
        pytest.skip("a finding without an automatic fix remains: the program is only partly fixed")
    assert fixed.count(MAIN) == 1 and good.count(MAIN) == 1
    with open(path, "w", encoding="utf-8") as handle:  # our fixed code, the case's checking driver
        head = fixed.split(MAIN)[0]
        driver = good.split(MAIN)[1]
        handle.write(head + _reference_helpers(good.split(MAIN)[0], head, driver, bug.split(MAIN)[0]) + MAIN + driver)
    exc, out = run_script(path)  # in this process, as test_bug_cases runs the cases: torch is imported once
    assert exc is None and out.strip().splitlines()[-1].startswith("ok"), (fixed, repr(exc))


def _reference_helpers(good_head: str, head: str, driver: str, bug_head: str) -> str:
    """Top-level functions and classes that only fixed.py defines (a loop reference its driver calls),
    and the functions its `__main__` block calls (a `main()` holding the checking driver) that our fix left
    as bug.py has them, appended after our fixed code: they check the result, they are not part of the fix."""
    ours = {node.name for node in ast.parse(head).body if isinstance(node, (ast.FunctionDef, ast.ClassDef))
            and ast.get_source_segment(head, node) not in bug_head}  # a function the fix edited stays ours
    defined = {node.name for node in ast.parse(head).body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    called = {node.func.id for node in ast.walk(ast.parse(textwrap.dedent(driver)))
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    extra = [ast.get_source_segment(good_head, node) for node in ast.parse(good_head).body
             if isinstance(node, (ast.FunctionDef, ast.ClassDef))
             and (node.name not in defined or (node.name in called and node.name not in ours))]
    return "".join(f"\n\n{segment}\n" for segment in extra) + ("\n\n" if extra else "")
