"""Applying fixes: libcst codemods (gather_lint.codemods), imported only here, only when fixing.

A fix is applied only if the fixed file parses and, re-linted, has its finding gone and no new one.
"""
from __future__ import annotations

import difflib
import os
from typing import Callable, Iterable, List, Optional, Sequence, Tuple

from . import api
from .findings import Finding
from .rules import RULES_BY_CODE


class FixesUnavailable(Exception):
    """libcst is missing (a --no-deps install): fixing cannot run; linting still can."""


def applicable(findings: Iterable[Finding], unsafe: bool) -> List[Finding]:
    chosen = []
    for f in findings:
        rule = RULES_BY_CODE.get(f.code)
        if f.fix is None or rule is None or rule.FIX is None:
            continue
        if rule.FIX == "safe" or unsafe:
            chosen.append(f)
    return chosen


def held_back(findings: Iterable[Finding], unsafe: bool) -> int:
    """How many findings have a fix that only --unsafe-fixes applies."""
    if unsafe:
        return 0
    return sum(1 for f in findings if f.fix is not None and getattr(RULES_BY_CODE.get(f.code), "FIX", None) == "unsafe")


def without_fix(findings: Iterable[Finding]) -> List[Finding]:
    """Findings no --fix changes: the rule has no fix, or the shapes do not say which fix is right."""
    return [f for f in findings if f.fix is None or getattr(RULES_BY_CODE.get(f.code), "FIX", None) is None]


def apply(text: str, findings: Sequence[Finding], unsafe: bool = False,
          lint: Optional[Callable[[str], Sequence[Finding]]] = None,
          where: Optional[Callable[[Finding], bool]] = None) -> Tuple[str, List[Finding]]:
    """(fixed text, findings whose fix was applied). `lint` re-lints a candidate text (default: as a
    plain module); a fix that does not remove its finding, or adds one, is not applied. `where` picks
    the findings that belong to this text when `lint` reports a larger whole (a notebook's cell)."""
    try:
        from .codemods import engine
    except ImportError as exc:  # libcst is a declared dependency, but a --no-deps install lacks it
        raise FixesUnavailable(f"fixing needs libcst ({exc}); install it with `pip install libcst`") from None
    if lint is None:
        lint = lambda candidate: api.lint_text(candidate).findings  # noqa: E731
    return engine.apply(text, findings, lint,
                        lambda found: applicable([f for f in found if where is None or where(f)], unsafe))


def unified_diff(path: str, before: str, after: str) -> str:
    """The change as `git diff` shows it: lines split at `\\n` only (a form feed or a lone `\\r` in the code is
    no line break), and a last line without a newline marked `\\ No newline at end of file`, so the output
    always ends with a newline and `patch` applies it."""
    shown = _diff_path(path)
    out = []
    for line in difflib.unified_diff(_lines(before), _lines(after), fromfile=f"a/{shown}", tofile=f"b/{shown}"):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _lines(text: str) -> List[str]:
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def _diff_path(path: str) -> str:
    """The path as git would show it: relative to the current directory when inside it, otherwise
    without the leading slash (`a/abs/x.py` for `/abs/x.py`, not `a//abs/x.py`), so `patch -p1` finds the file."""
    if os.path.isabs(path):
        relative = os.path.relpath(path)
        if not relative.startswith(os.pardir):
            return relative.replace(os.sep, "/")
        return os.path.splitdrive(path)[1].lstrip("/\\").replace(os.sep, "/")
    return path.replace(os.sep, "/")
