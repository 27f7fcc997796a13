"""Applying fixes: libcst codemods (gather_lint.codemods), imported only here, only when fixing.

A fix is applied only if the fixed file parses and, re-linted, has its finding gone and no new one.
"""
from __future__ import annotations

import difflib
import os
from typing import Callable, Iterable, List, Optional, Sequence, Tuple

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
        from .api import lint_text

        lint = lambda candidate: lint_text(candidate).findings  # noqa: E731
    return engine.apply(text, findings, lint,
                        lambda found: applicable([f for f in found if where is None or where(f)], unsafe))


def unified_diff(path: str, before: str, after: str) -> str:
    shown = _diff_path(path)
    return "".join(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                        fromfile=f"a/{shown}", tofile=f"b/{shown}"))


def _diff_path(path: str) -> str:
    """The path as git would show it: relative to the current directory when inside it, otherwise
    without the leading slash (`a/abs/x.py` for `/abs/x.py`, not `a//abs/x.py`), so `patch -p1` finds the file."""
    if os.path.isabs(path):
        relative = os.path.relpath(path)
        if not relative.startswith(os.pardir):
            return relative.replace(os.sep, "/")
        return os.path.splitdrive(path)[1].lstrip("/\\").replace(os.sep, "/")
    return path.replace(os.sep, "/")
