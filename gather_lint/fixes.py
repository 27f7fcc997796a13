"""Applying fixes: text appended to an index argument, back to front, formatting untouched."""
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
    """(fixed text, findings whose fix was applied). Overlapping fixes: the first one wins."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, col: int) -> int:
        return starts[line - 1] + col - 1

    edits, done, taken = [], [], []
    for f in sorted(applicable(findings, unsafe), key=lambda f: (f.fix[0], f.fix[1])):
        line, col, end_line, end_col, suffix, wrap = f.fix
        begin, end = offset(line, col), offset(end_line, end_col)
        if any(begin < e and b < end for b, e in taken) or any(b == begin and e == end for b, e in taken):
            continue  # one fix per argument per run; the next run sees the new code
        taken.append((begin, end))
        edits.append((begin, end, suffix, wrap))
        done.append(f)
    for begin, end, suffix, wrap in sorted(edits, reverse=True):
        middle = f"({text[begin:end]})" if wrap else text[begin:end]
        text = text[:begin] + middle + suffix + text[end:]
    return text, done


def unified_diff(path: str, before: str, after: str) -> str:
    return "".join(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                        fromfile=f"a/{path}", tofile=f"b/{path}"))
