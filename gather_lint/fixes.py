"""Applying fixes: span edits from the AST positions, applied back to front, formatting untouched."""
from __future__ import annotations

import difflib
from typing import Iterable, List, Tuple

from .findings import Finding
from .rules import RULES_BY_CODE


def applicable(findings: Iterable[Finding], unsafe: bool) -> List[Finding]:
    chosen = []
    for f in findings:
        rule = RULES_BY_CODE.get(f.code)
        if f.fix is None or rule is None or rule.FIX is None:
            continue
        if rule.FIX == "safe" or unsafe:
            chosen.append(f)
    return chosen


def apply(text: str, findings: Iterable[Finding], unsafe: bool = False) -> Tuple[str, List[Finding]]:
    """(fixed text, findings whose fix was applied). A fix touching another's span waits for the next run."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, col: int) -> int:
        return starts[line - 1] + col - 1

    taken, edits, done = [], [], []
    for f in sorted(applicable(findings, unsafe), key=lambda f: (f.line, f.column, f.code)):
        spans = [(offset(e[0], e[1]), offset(e[2], e[3]), e[4]) for e in f.fix]
        if any(b <= e2 and b2 <= e for b, e, _ in spans for b2, e2 in taken):
            continue
        taken.extend((b, e) for b, e, _ in spans)
        edits.extend(spans)
        done.append(f)
    for begin, end, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:begin] + new + text[end:]
    return text, done


def unified_diff(path: str, before: str, after: str) -> str:
    return "".join(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                        fromfile=f"a/{path}", tofile=f"b/{path}"))
