"""`gather-lint shapes`: the tensor facts of each function as a table whose columns line up."""
from __future__ import annotations

from typing import List, Sequence

from .dims import dim_text

_HEADERS = ("line", "name", "shape", "dtype", "from", "values")


def render(path: str, scopes: Sequence[tuple]) -> str:
    """One block per function (`path:line name`), then a row per fact; widths fit the widest cell."""
    return render_blocks([(f"{path}:{first} {name}", trace) for name, first, trace in scopes])


def render_blocks(blocks: Sequence[tuple]) -> str:
    """(heading, [(line, variable, fact)]) blocks, as render() lays them out (a notebook's: one per cell)."""
    rows = [_cells(line, variable, fact) for _, trace in blocks for line, variable, fact in trace]
    widths = [max([len(h)] + [len(r[k]) for r in rows]) for k, h in enumerate(_HEADERS)]
    out: List[str] = []
    for heading, trace in blocks:
        out.append(heading)
        out.append(_row(_HEADERS, widths))
        out.extend(_row(_cells(line, variable, fact), widths) for line, variable, fact in trace)
    return "".join(line + "\n" for line in out)


def _cells(line: int, variable: str, fact) -> tuple:
    shape = "?" if fact.shape is None else str(fact.shape)
    values = ""
    if fact.domain is not None:
        values = fact.domain.origin or f"positions in a dim of size {dim_text(fact.domain.size)}"
    return (str(line), variable, shape, fact.dtype or "?", fact.origin or "inferred from ops", values)


def _row(cells: Sequence[str], widths: Sequence[int]) -> str:
    line = cells[0].rjust(widths[0])
    rest = "  ".join(cell.ljust(width) for cell, width in zip(cells[1:], widths[1:]))
    return f"  {line}  {rest}".rstrip()
