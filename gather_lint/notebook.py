"""Jupyter notebooks: code cells are linted together (state flows top to bottom), magics and shell
lines skipped, findings reported as `notebook.ipynb:cell N:line:col`. Fixes: notebook_fixes.py."""
from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import List, Tuple

from .findings import PARSE_ERROR, FileResult, Finding, Stats

MAGIC = ("%", "!", "?")  # IPython line starts: magics, shell escapes, help


class NotebookError(Exception):
    pass


def load(text: str) -> dict:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise NotebookError(f"not a notebook: invalid JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise NotebookError("not a notebook: no 'cells' list")
    return data


def cell_source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def code_cells(data: dict) -> List[Tuple[int, str]]:
    """(1-based cell number, source) of every code cell; IPython syntax becomes `pass`, and a cell whose
    first line is indented loses that indent, as IPython's leading-indent transform does before it runs it."""
    found = []
    for number, cell in enumerate(data["cells"], 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        lines = cell_source(cell).split("\n")
        if _cell_magic(lines):
            continue  # a cell magic: the body is not Python
        lines = _without_leading_indent(lines)
        continued = continuation_lines(lines)
        found.append((number, "\n".join("" if k in continued else _as_python(line) for k, line in enumerate(lines))))
    return found


def _cell_magic(lines: List[str]) -> bool:
    """`%%bash` on the cell's first line, or after Colab form lines only (`#@title Install`, `#@markdown ...`):
    Colab sends a form cell without them, so the magic is the first line the kernel sees."""
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("#@"):
            continue
        return stripped.startswith("%%")
    return False


def continuation_lines(lines: List[str]) -> set:
    """Indexes of the lines that continue a magic or shell command ended by a backslash (`%shell wget \\`
    then the URL on the next line): IPython joins them to the command, so they are no Python of their own."""
    continued, inside = set(), False
    for k, line in enumerate(lines):
        if inside:
            continued.add(k)
        elif not line.lstrip().startswith(MAGIC):
            continue
        inside = line.rstrip().endswith("\\")
    return continued


def _as_python(line: str) -> str:
    """A magic or shell command (`!wget ...`, `%time f()`) becomes `pass` at its indent: IPython runs one
    inside an `if` block too, where a blank line would leave the block empty. Other IPython lines (`?x`, and
    a `% b` that may continue a bracket) become blank."""
    stripped = line.lstrip()
    if not stripped.startswith(MAGIC):
        return line
    command = stripped[:1] in "!%" and stripped[1:2].isalpha()
    return line[:len(line) - len(stripped)] + "pass" if command else ""


def leading_indent(source: str) -> str:
    """The whitespace that starts a cell's first line: IPython strips it from every line that starts so."""
    first = source.split("\n", 1)[0]
    return first[:len(first) - len(first.lstrip(" \t"))] if first.strip() else ""


def _without_leading_indent(lines: List[str]) -> List[str]:
    prefix = leading_indent(lines[0]) if lines else ""
    return [line[len(prefix):] if prefix and line.startswith(prefix) else line for line in lines]


def combined(cells: List[Tuple[int, str]]):
    """One module text for all cells, and for each of its lines the (cell, line in cell)."""
    parts, where = [], []
    for number, source in cells:
        lines = source.split("\n")
        parts.extend(lines)
        where.extend((number, i) for i in range(1, len(lines) + 1))
    return "\n".join(parts) + "\n", where


def lint(text: str, path: str, lint_source) -> FileResult:
    try:
        data = load(text)
    except NotebookError as exc:
        return FileResult(path, [Finding(path, 1, 1, PARSE_ERROR, 1, 1, "error", f"{exc}; it was not checked")], Stats(files=1))
    module, where = combined(code_cells(data))
    result = lint_source(module, path)
    shifted = _indents_removed(data)
    return FileResult(path, sorted(_relocate(f, path, where, shifted) for f in result.findings), result.stats)


def _indents_removed(data: dict) -> dict:
    """cell -> (the indent its lines lost, its original lines), for cells whose first line was indented."""
    found = {}
    for number, cell in enumerate(data["cells"], 1):
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            source = cell_source(cell)
            prefix = leading_indent(source)
            if prefix:
                found[number] = (prefix, source.split("\n"))
    return found


def _relocate(f: Finding, path: str, where, shifted=None) -> Finding:
    if not where or f.line > len(where):
        return replace(f, path=path)
    cell, line = where[f.line - 1]
    end_cell, end_line = where[min(f.end_line, len(where)) - 1]
    if shifted and cell in shifted:  # columns back where the cell has them; no fix in a cell read dedented
        prefix, original = shifted[cell]
        moved = len(prefix) if 0 < line <= len(original) and original[line - 1].startswith(prefix) else 0
        f = replace(f, column=f.column + moved, end_column=f.end_column + moved, fix=None)
    fix = f.fix
    if fix is not None:
        moved = []
        for edit in fix:
            (cell_a, in_a), (cell_b, in_b) = where[edit.line - 1], where[edit.end_line - 1]
            if cell_a != cell or cell_b != cell:
                moved = None  # an edit in another cell (where a float was made): not applied per cell
                break
            moved.append(edit._replace(line=in_a, end_line=in_b))
        fix = tuple(moved) if moved else None
    return replace(f, path=f"{path}:cell {cell}", line=line,
                   end_line=end_line if end_cell == cell else line, end_column=f.end_column if end_cell == cell else f.column,
                   fix=fix, message=cell_lines(f.message, cell, where),
                   help=cell_lines(f.help, cell, where) if f.help else f.help)


_LINE = re.compile(r"\bline (\d+)\b")


def cell_lines(text: str, cell: int, where) -> str:
    """'line 9' in a message (where a value was made) counted within the cells, as positions are: 'line 5'
    in the finding's own cell, 'line 2 of cell 2' in another."""
    def local(match) -> str:
        number = int(match.group(1))
        if not 0 < number <= len(where):
            return match.group(0)
        at_cell, at_line = where[number - 1]
        return f"line {at_line}" if at_cell == cell else f"line {at_line} of cell {at_cell}"
    return _LINE.sub(local, text)


def shape_blocks(text: str, path: str, explain, faults: list) -> List[Tuple[str, list]]:
    """`gather-lint shapes` of a notebook: explain (analyzer.explain_shapes) over the cells run together,
    then one block per function (`nb.ipynb:cell 4:1 f`) and per cell of top-level code (`nb.ipynb:cell 2`),
    each fact at its line within its cell. Faults found are relocated in place."""
    module, where = combined(code_cells(load(text)))
    found: list = []
    scopes = explain(module, path, None, found)
    faults.extend(_relocate(f, path, where) for f in found)
    blocks: List[Tuple[str, list]] = []
    for name, first, trace in scopes:
        if name != "<module>":
            cell, line = where[first - 1] if 0 < first <= len(where) else (None, first)
            blocks.append((f"{path}:cell {cell}:{line} {name}", [_in_cell(row, where) for row in trace]))
            continue
        for line, variable, fact in trace:  # top-level code: a block per cell, in order
            cell, in_cell = where[line - 1] if 0 < line <= len(where) else (None, line)
            heading = f"{path}:cell {cell}"
            if not blocks or blocks[-1][0] != heading:
                blocks.append((heading, []))
            blocks[-1][1].append((in_cell, variable, fact))
    return blocks


def _in_cell(row, where):
    line, variable, fact = row
    return (where[line - 1][1] if 0 < line <= len(where) else line), variable, fact
