"""Rows of an integer tensor written out in the code: `torch.tensor([[0, 1, 1, 3], [1, 2, 3, 4]])`.

An edge list written as a literal holds its node ids: row k's largest id is among the values of
`edge_index[k]`, so a table of fewer rows indexed with that row reads past its end (a degree
vector sized by the edge count instead of the node count). The rows are kept with the shape they
were written in, and swapped by a transpose (`.t()`, `.T`: records of (src, dst) pairs become an
edge list); any other op that changes the shape forgets them, and a square literal is not followed
(an op that keeps its shape could have swapped its rows).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import Optional

from ..contract import Domain
from ..dims import Shape, value
from .constant_ids import literal_ints
from .value_makers import made_by
from .tensor_ops import new_axes, whole_slice
from .values import DimVal, SeqVal, TensorVal


_ORIGIN = "values written at line "


def written_origin(line, top: int, where: str = "") -> str:
    """How values written out at `line` are described, `top` the largest among them (`where`: a row or column)."""
    return f"{_ORIGIN}{line}, {top} among them{where}"


@dataclass(frozen=True)
class Rows:
    shape: Shape
    values: tuple  # the rows as written (tuples of ints)
    line: int

    @property
    def maxima(self) -> tuple:
        """Each row's largest written int (None for a row of floats only)."""
        return tuple(max((v for v in row if v is not None), default=None) for row in self.values)


def of_literal(func: str, made, data_node, data, line: int):
    """`torch.tensor(<rows of ints>)`: the tensor with each row's largest value."""
    if func not in ("tensor", "as_tensor", "LongTensor") or not isinstance(made, TensorVal) or made.shape is None \
            or made.dtype not in ("int64", "int32", "float32", "float64") or len(made.shape.dims) != 2:
        return made
    rows = _rows(data_node, data) if made.dtype in ("int64", "int32") else _table_rows(data_node)
    dims = made.shape.dims
    if rows is None or not rows or dims != (len(rows), len(rows[0])) or dims[0] == dims[1]:
        return made
    if len(rows) * len(rows[0]) > _MOST:
        return made  # a table of data, not a handful of ids
    return made.with_(written=Rows(made.shape, tuple(tuple(r) for r in rows), line))


_MOST = 4096


def transposed(method: str, owner, result, args=()):
    """`x.t()` / `x.T` / `x.transpose(0, 1)` of a written tensor: its columns become its rows."""
    written = owner.written if isinstance(owner, TensorVal) else None
    if written is None or not isinstance(result, TensorVal) or _sizes(owner.shape) != _sizes(written.shape):
        return result
    dims = [a.dim for a in args if isinstance(a, DimVal)]
    if method in ("t", "T") or (method == "transpose" and len(dims) == 2 and sorted(d % 2 for d in dims) == [0, 1]):
        columns = tuple(zip(*written.values))
        return result.with_(written=Rows(Shape((len(columns), len(columns[0]))), columns, written.line))
    return result


def _table_rows(data_node) -> Optional[list]:
    """A float table written out (`[[1, 10.0, 12.0], [3, 30.0, 40.0]]`, a class id and box corners per row):
    its ints kept, its floats None. A table without an int in it says nothing about ids."""
    if not isinstance(data_node, (ast.List, ast.Tuple)) or not all(isinstance(e, (ast.List, ast.Tuple)) for e in data_node.elts):
        return None
    rows = [[_number(item) for item in e.elts] for e in data_node.elts]
    if any(v is _NOT_A_NUMBER for r in rows for v in r) or all(v is None for r in rows for v in r):
        return None
    return rows


_NOT_A_NUMBER = object()


def _number(node):
    """A written int as itself, a written float as None, anything else _NOT_A_NUMBER."""
    ints = literal_ints(node)
    if ints is not None and not isinstance(node, (ast.List, ast.Tuple)):
        return ints[0]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return None if isinstance(node, ast.Constant) and type(node.value) is float else _NOT_A_NUMBER


def _rows(data_node, data) -> Optional[list]:
    if isinstance(data_node, (ast.List, ast.Tuple)) and all(isinstance(e, (ast.List, ast.Tuple)) for e in data_node.elts):
        rows = [literal_ints(e) for e in data_node.elts]
    elif isinstance(data, SeqVal) and all(isinstance(i, SeqVal) for i in data.items):
        rows = [[v.dim for v in r.items] if all(isinstance(v, DimVal) and isinstance(v.dim, int) for v in r.items)
                else None for r in data.items]
    else:
        return None
    if any(not r for r in rows) or len({len(r) for r in rows}) != 1:
        return None
    return rows


def row(owner, key, result):
    """`x[k]` of a written tensor: row k's largest value is among the result's values. A selection
    from such a row (`x[k][picks]`, `x[k][:n]`) may leave that value out: it no longer says so."""
    written = owner.written if isinstance(owner, TensorVal) else None
    if isinstance(key, SeqVal) and not key.names and key.items and all(whole_slice(k) for k in key.items[1:]):
        key = key.items[0]  # x[k, :]
    if written is None or _sizes(owner.shape) != _sizes(written.shape) or not isinstance(result, TensorVal) \
            or not isinstance(key, DimVal) or not isinstance(key.dim, int):
        return result if new_axes(key) is not None else _forgotten(owner, result)
    if from_written(owner) and result.domain is not None and result.domain.origin == owner.domain.origin:
        result = result.with_(domain=replace(result.domain, size=None, origin=""))  # the row's own, below
    k = key.dim
    if not -len(written.maxima) <= k < len(written.maxima):
        return result
    top = written.maxima[k]
    if top is None or top <= 0 or (result.domain is not None and result.domain.size is not None):
        return result
    origin = written_origin(written.line, top, f" (row {k % len(written.maxima)})")
    return result.with_(written=None, domain=replace(result.domain or Domain(), size=top + 1, origin=origin,
                                                     category=False))


def column(interp, node, owner, key, result):
    """`x[:, k]` / `x[rows, k]` of a written tensor, rows a written list or all of them: the largest int
    of column k among the picked rows is among the result's values (a class id column of an
    annotation table)."""
    written = owner.written if isinstance(owner, TensorVal) else None
    if written is None or _sizes(owner.shape) != _sizes(written.shape) or not isinstance(result, TensorVal) \
            or result.domain is not None or not isinstance(key, SeqVal) or key.names or len(key.items) != 2 \
            or not isinstance(key.items[1], DimVal) or not isinstance(key.items[1].dim, int):
        return result
    k, count = key.items[1].dim, len(written.values)
    if not -len(written.values[0]) <= k < len(written.values[0]):
        return result
    picked = range(count) if whole_slice(key.items[0]) else _written_rows_picked(interp, node, count)
    entries = [written.values[r][k] for r in picked] if picked is not None else []
    top = max((v for v in entries if v is not None), default=None)
    if top is None or top <= 0:
        return result
    origin = written_origin(written.line, top, f" (column {k % len(written.values[0])})")
    return result.with_(written=None, domain=Domain(top + 1, origin=origin))


def _written_rows_picked(interp, node, count: int) -> Optional[list]:
    """The rows `x[[0, 2, 2], k]` picks when they are written out in the code (through local names)."""
    first = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) and node.slice.elts else None
    if isinstance(first, (ast.List, ast.Tuple)):
        numbers = literal_ints(first)
    else:
        made = made_by(interp, first, ("tensor", "LongTensor", "as_tensor")) if first is not None else None
        numbers = literal_ints(made.args[0]) if made is not None and made.args else None
    if not numbers or any(not -count <= r < count for r in numbers):
        return None
    return sorted({r % count for r in numbers})


def _sizes(shape) -> Optional[tuple]:
    return None if shape is None or shape.variadic else tuple(value(d) for d in shape.dims)


def _forgotten(owner, result):
    """A part of a written tensor may not hold its largest value: the claim goes, and what the origin says of
    the literal's repeats (`a literal list naming 3 in several rows`) stays to name them."""
    if from_written(owner) and isinstance(result, TensorVal) and result.domain is not None \
            and result.domain.origin == owner.domain.origin:
        repeats = result.domain.origin.partition("; ")[2] if result.domain.repeats else ""
        return result.with_(domain=replace(result.domain, size=None, origin=repeats))
    return result


def from_written(t) -> bool:
    """Values known from a written tensor's entries (of_literal, row, column)."""
    return isinstance(t, TensorVal) and t.domain is not None and t.domain.origin.startswith(_ORIGIN)
