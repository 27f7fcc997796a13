"""An internal error while analysing one scope costs that scope only.

A fault in the analysis of one function (or of one statement of the module body: a class, a script's
driver block) must not hide the findings of the rest of the file: the scope is given up, the others are
still checked, and the fault is reported as a GL000 finding at the scope's line, so it is never hidden.
A fault in a file-wide check (after the functions) keeps what was found before it, with a GL000 at 1:1.

With GATHER_LINT_RAISE_INTERNAL_ERRORS set (the test suite sets it), a fault is raised instead, so that a
test fails where the analysis broke rather than on a missing finding.
"""
from __future__ import annotations

import ast
import os
from typing import Callable, Dict, List, Optional, Tuple

from ..findings import PARSE_ERROR, Finding
from .source import SourceFile

RAISE_VARIABLE = "GATHER_LINT_RAISE_INTERNAL_ERRORS"

# told of each scope given up: (its node, the exception[, the line of the call whose facts it ran with])
Fault = Callable[..., None]


def contained(exc: BaseException) -> bool:
    """Whether a fault is given up with its scope. A RecursionError is not: the whole file is analysed
    again on a bigger stack (file_blocks.on_big_stack)."""
    return isinstance(exc, Exception) and not isinstance(exc, RecursionError) and not os.environ.get(RAISE_VARIABLE)


def run_module_body(interp, body: List[ast.stmt], fault: Fault) -> None:
    """The module body statement by statement, as Interpreter.block runs it: a statement whose analysis
    fails is skipped (the names it binds stay unknown) and the next one runs."""
    for stmt in body:
        try:
            if interp.block([stmt]):
                return  # a module-level `raise` / `sys.exit()` path: what follows is not reached
        except Exception as exc:
            if not contained(exc):
                raise
            fault(stmt, exc)


class ScopeFaults:
    """The fault handler of one file: appends each given-up scope's GL000 to the file's findings, one per
    scope; a fault of the scope's own analysis replaces one under a caller's facts."""

    def __init__(self, path: str, source: SourceFile, findings: List[Finding]):
        self.path, self.source, self.findings = path, source, findings
        self._made: Dict[int, Tuple[Finding, Optional[int]]] = {}  # id(scope node) -> (its GL000, call line)

    def __call__(self, node: ast.AST, exc: BaseException, call_line: Optional[int] = None) -> None:
        earlier = self._made.get(id(node))
        at = next((k for k, f in enumerate(self.findings) if earlier is not None and f is earlier[0]), None)
        if at is not None:
            if call_line is not None or earlier[1] is None:
                return
            del self.findings[at]
        made = finding(self.path, self.source, node, exc, call_line)
        self._made[id(node)] = (made, call_line)
        self.findings.append(made)


def scope_name(node: ast.AST) -> str:
    """`name` of a def or class; `the module-level code at line N` for any other statement."""
    name = getattr(node, "name", None)
    return f"`{name}`" if isinstance(name, str) else f"the module-level code at line {getattr(node, 'lineno', 1)}"


def _kind(node: ast.AST) -> str:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return "function"
    return "class" if isinstance(node, ast.ClassDef) else "code"


def _reason(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0][:200]}" if lines else type(exc).__name__


def message(node: ast.AST, exc: BaseException, call_line: Optional[int] = None) -> str:
    """The GL000 text, worded as the file-level one (api.lint_file): what failed, why, what it cost.
    `call_line`: the function failed only when run with the facts of the call at that line."""
    reason = _reason(exc)
    if call_line is not None:
        return (f"internal error while analysing {scope_name(node)} with the facts of the call at line {call_line} "
                f"({reason}); it was not checked with them; please report it with the file")
    return (f"internal error while analysing {scope_name(node)} ({reason}); this {_kind(node)} was not checked; "
            "please report it with the file")


def finding(path: str, source: SourceFile, node: ast.AST, exc: BaseException, call_line: Optional[int] = None) -> Finding:
    """The GL000 finding at the scope's first line (a def's `def`, not its decorators)."""
    line = getattr(node, "lineno", None) or 1
    col = source.char_col(line, getattr(node, "col_offset", 0) or 0) + 1
    return Finding(path, line, col, PARSE_ERROR, line, col, "error", message(node, exc, call_line))


def file_finding(path: str, exc: BaseException) -> Finding:
    """GL000 at 1:1 for a fault outside any one function (a file-wide check): the findings made before it
    are still reported."""
    return Finding(path, 1, 1, PARSE_ERROR, 1, 1, "error",
                   f"internal error while analysing this file ({_reason(exc)}); the checks after it were not run; "
                   "please report it with the file")
