"""Apply a file's fixes and keep only the ones that hold up: the fixed code parses, and re-linted
it has the fixed findings gone and no finding that was not there before."""
from __future__ import annotations

import ast
import warnings
from collections import Counter
from typing import Callable, List, Optional, Sequence, Tuple

import libcst as cst
from libcst.codemod import CodemodContext

from ..findings import Edit, Finding
from .base import span_of
from .registry import ApplyEdits

Lint = Callable[[str], Sequence[Finding]]
ROUNDS = 4  # a fix can reveal another (a finding that waited for its node): re-lint and go again


def apply(text: str, findings: Sequence[Finding], lint: Lint, chosen: Callable[[Sequence[Finding]], List[Finding]]
          ) -> Tuple[str, List[Finding]]:
    """(fixed text, findings whose fix was applied). `chosen` picks the findings to fix from a lint."""
    done: List[Finding] = []
    for _ in range(ROUNDS):
        wanted = chosen(findings)
        if not wanted:
            break
        fixed, applied = _one_round(text, findings, wanted, lint)
        if not applied:
            break
        text, done = fixed, done + applied
        findings = lint(text)
    return text, done


def _one_round(text, findings, wanted, lint) -> Tuple[str, List[Finding]]:
    try:
        module = cst.parse_module(text)
    except Exception:  # noqa: BLE001 - code libcst cannot parse (newer syntax, deep nesting) is left as it is
        return text, []
    before = Counter(f.code for f in findings)
    batch = _compatible(sorted(wanted, key=lambda f: (f.line, f.column, f.code)))
    fixed = _attempt(module, batch, before, lint)
    if fixed is not None:
        return fixed, batch
    accepted: List[Finding] = []  # one by one: keep each fix that holds up with those kept before it
    result = text
    for f in batch:
        fixed = _attempt(module, accepted + [f], before, lint)
        if fixed is not None:
            accepted.append(f)
            result = fixed
    return result, accepted


def _compatible(findings: List[Finding]) -> List[Finding]:
    """Fixes that do not edit the same node differently; the others wait for the next round."""
    taken = {}
    picked = []
    for f in findings:
        if any(taken.get(span_of(e), e) != e for e in f.fix):
            continue
        taken.update((span_of(e), e) for e in f.fix)
        picked.append(f)
    return picked


def _attempt(module: cst.Module, fixing: List[Finding], before: Counter, lint: Lint) -> Optional[str]:
    edits = list(dict.fromkeys(Edit(*e) for f in fixing for e in f.fix))
    command = ApplyEdits(CodemodContext(), edits)
    try:
        new = command.transform_module(module)
    except Exception:  # a codemod that cannot handle this code applies nothing  # noqa: BLE001
        return None
    if len(command.applied) != len(edits):
        return None
    code = new.code
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return None
    after = Counter(f.code for f in lint(code))
    expected = before - Counter(f.code for f in fixing)
    return code if all(after[c] <= expected[c] for c in after) else None
