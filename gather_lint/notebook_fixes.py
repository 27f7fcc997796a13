"""Fixes in a Jupyter notebook: each code cell's source is fixed in the notebook JSON; outputs, metadata
and layout stay as they were. Above both notebook.py (reading cells, which the linter needs) and
fixes.py (which re-lints through the library API)."""
from __future__ import annotations

import json
import re
from typing import Callable, List, Tuple

from . import fixes
from .findings import Finding
from .notebook import MAGIC, cell_source, continuation_lines, load

_MAGIC_MARK = re.compile(r"^(\s*)#gather-lint-magic:", re.MULTILINE)


def _hide_magics(source: str) -> str:
    """IPython lines (and the lines a backslash joins to them) as marked comments, so the fixes' parser takes
    the cell; put() unmarks them."""
    lines = source.split("\n")
    continued = continuation_lines(lines)
    return "\n".join(line[:len(line) - len(line.lstrip())] + "#gather-lint-magic:" + line.lstrip()
                     if line.lstrip().startswith(MAGIC) or k in continued else line for k, line in enumerate(lines))


def apply_fixes(text: str, path: str, findings: List[Finding], unsafe: bool,
                lint_notebook: Callable[[str], List[Finding]]) -> Tuple[str, List[Finding]]:
    """Fix each cell's source in the notebook JSON; outputs, metadata and layout stay as they were.
    Each candidate fix is checked by re-linting the whole notebook, since cells share their state."""
    data = load(text)
    indent = 1 if '\n "' in text[:200] else 2
    newline = "\n" if text.endswith("\n") else ""

    def dump() -> str:
        return json.dumps(data, indent=indent, ensure_ascii=False) + newline

    done_all: List[Finding] = []
    for number, cell in enumerate(data["cells"], 1):
        shown = f"{path}:cell {number}"
        if cell.get("cell_type") != "code" or not any(f.path == shown for f in findings):
            continue
        original, as_list = cell_source(cell), isinstance(cell.get("source"), list)
        source = _hide_magics(original)

        def put(candidate: str, cell=cell, as_list=as_list) -> None:
            candidate = _MAGIC_MARK.sub(r"\1", candidate)
            cell["source"] = candidate.splitlines(keepends=True) if as_list else candidate

        def lint_with(candidate: str, put=put) -> List[Finding]:
            put(candidate)
            return lint_notebook(dump())

        fixed, done = fixes.apply(source, lint_with(source), unsafe, lint=lint_with,
                                  where=lambda f, shown=shown: f.path == shown)
        put(fixed if done else original)
        done_all.extend(done)
        findings = lint_notebook(dump())
    if not done_all:
        return text, []
    return dump(), done_all
