"""One finding per position and code, where a function was checked with its own facts and with callers'.

A function is analysed alone, and again for each call that brings facts (calls.py). The callers' facts only
add: where the function's own facts give a finding, that one is reported, with its message and fix in the
function's own names (`.expand(-1, features.size(1))`, not a driver's `128`). A finding only callers' facts
give says so, naming each call once, and keeps its fix only when every run with a caller's facts that
checked the site asked for that same fix (a fix in the callee serves every caller).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Dict, List, Sequence

from ..findings import Finding


def one_finding(found: List[Finding], calls_of: Dict[int, tuple], checks: Sequence[dict]) -> Finding:
    """The finding to report among those at one position with one code, in the order they were made.
    `calls_of`: id(finding) -> the lines of the calls whose facts made it, innermost first (absent: the
    function's own facts);
    `checks`: {code: fix} of every run with a caller's facts that checked the site at this position."""
    own = [f for f in found if id(f) not in calls_of]
    if own:
        return own[0]
    # the finding of the fewest hops speaks (a driver's longer way to the same call adds nothing to say)
    first = min(found, key=lambda f: len(calls_of[id(f)]))
    agreed = first.fix is not None and all(f.fix == first.fix for f in found) \
        and all(check.get(first.code) == first.fix for check in checks)
    return replace(first, message=first.message + note({calls_of[id(f)][0] for f in found}),
                   fix=first.fix if agreed else None)


def note(lines) -> str:
    """' (facts from the call at line 10)': the calls that brought the facts into the function, each named
    once (not the calls further out that brought facts to those callers)."""
    lines = sorted(lines)
    if len(lines) == 1:
        return f" (facts from the call at line {lines[0]})"
    said = [f"line {n}" for n in lines]  # each `line N` on its own, so a notebook renames it to its cell's line
    return f" (facts from the calls at {', '.join(said[:-1])} and {said[-1]})"
