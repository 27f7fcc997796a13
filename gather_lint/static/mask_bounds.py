"""What a boolean mask says about the values it is made of: `pc[(pc[:, 0] >= x_min) & (pc[:, 0] <= x_max)]`.

A comparison of a tensor (or of one column of it, `pc[:, k]`) with a number marks the mask it makes with
that bound; `&` keeps the bounds of both sides (the rows it keeps satisfy each). Indexing the same tensor
with the mask keeps only rows within the bounds, so the result's column k holds values in the interval
the bounds give, with `<=` reaching its end and `<` not (value_intervals.Interval). `pc[:, k]` of the
result reads that interval. The tensor is matched by its name, and only where the name was not bound again
between the mask and the filter.

An equality (`ids == pad`) marks its mask the same way, and `.any()` keeps the mark: a guard that finds no
true entry (`if not (ids == pad).any(-1).any():`, or one that raises when it finds one) rules the value out
of `ids` on the path it guards (statements.py). Any other op forgets the bounds: a mask that is negated,
or-ed, reduced otherwise or reshaped says nothing here.
"""
from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from typing import Optional

from .last_assignment import last_assigned
from .tensor_ops import whole_slice
from .value_intervals import Interval, column_read, constant, tidy
from .values import DimVal, Literal, SeqVal, TensorVal

_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


@dataclass(frozen=True)
class Bound:
    """`subject[:, column] op number` (column None: the whole tensor), written at `line`."""

    subject: str
    column: Optional[int]
    op: str
    number: float
    line: int


def compared(node: ast.Compare, op: str, left, right, made, segment):
    """A bool mask from `x op number` or `number op x`: marked with that bound."""
    if op not in _FLIPPED or not isinstance(made, TensorVal) or made.dtype != "bool":
        return made
    if isinstance(left, TensorVal) and constant(right) is not None:
        side, number = node.left, constant(right)
    elif isinstance(right, TensorVal) and constant(left) is not None:
        side, number, op = node.comparators[0], constant(left), _FLIPPED[op]
    else:
        return made
    subject, column = _subject(side, segment)
    if subject is None:
        return made
    return made.with_(bounds=(Bound(subject, column, op, number, node.lineno),))


def after_method(method: str, owner, result):
    """`(ids == pad).any(dim)` (or `.any()`): true where some entry equals the number, so the bound rides along
    for a guard that tests it (`if not has_pad.any():`); a mask of one comparison only."""
    if method != "any" or not isinstance(owner, TensorVal) or not isinstance(result, TensorVal) \
            or not _one_equality(owner.bounds):
        return result
    return result.with_(bounds=owner.bounds)


def absent(test) -> tuple:
    """What `test` being false rules out: for `(x == s).any()`, ((x's text, s),): no entry of x equals s."""
    if not isinstance(test, TensorVal) or not _one_equality(test.bounds):
        return ()
    bound = test.bounds[0]
    return ((bound.subject, bound.number),) if bound.column is None else ()


def _one_equality(bounds) -> bool:
    return bool(bounds) and len(bounds) == 1 and bounds[0].op == "=="


def both(left, right, symbol: Optional[str], result):
    """`a & b` of masks: the rows it keeps satisfy the bounds of each side."""
    if symbol != "&" or not isinstance(result, TensorVal) or result.dtype != "bool":
        return result
    # (the equalities: `(a == s) & c` having no true entry says nothing of a alone)
    found = tuple(b for side in (left, right) if isinstance(side, TensorVal) for b in side.bounds or () if b.op != "==")
    return result.with_(bounds=found or None)


def filtered(interp, node: ast.Subscript, key, picked):
    """`pc[mask]` of a mask bounding `pc` (or its columns): the intervals of the values kept."""
    if not isinstance(key, TensorVal) or not key.bounds or not isinstance(picked, TensorVal):
        return picked
    owner = interp.source.segment(node.value)
    rebound = last_assigned(interp, owner, node.lineno) if isinstance(node.value, ast.Name) else None
    # (`pc = pc * s` between the mask and the filter: the mask's bounds are of the values pc held before)
    mine = [b for b in key.bounds if b.subject == owner and (rebound is None or rebound.lineno <= b.line)]
    whole = _interval([b for b in mine if b.column is None], owner, None)
    columns = tuple(sorted((k, made) for k in {b.column for b in mine if b.column is not None}
                           if (made := _interval([b for b in mine if b.column == k], owner, k)) is not None))
    if whole is None and not columns:
        return picked
    return picked.with_(interval=whole or picked.interval, column_intervals=columns or None)


def column(owner, key, picked):
    """`pc[:, k]` (or `pc[..., k]`) of rows kept within bounds: column k's interval."""
    if not isinstance(owner, TensorVal) or not owner.column_intervals or not isinstance(picked, TensorVal) \
            or not isinstance(key, SeqVal) or len(key.items) != 2 \
            or owner.shape is not None and (owner.shape.variadic or len(owner.shape.dims) != 2):
        return picked
    first, k = key.items
    if not (whole_slice(first) or isinstance(first, Literal) and first.value is Ellipsis) or not isinstance(k, DimVal) \
            or not isinstance(k.dim, int):
        return picked
    found = dict(owner.column_intervals).get(k.dim)
    return column_read(picked.with_(interval=found), found) if found is not None else picked


def _interval(bounds: list, owner: str, column: Optional[int]) -> Optional[Interval]:
    """The interval the bounds of one column leave: needs an upper end; the lower is -inf when none is given."""
    bounds = [b for b in bounds if b.op not in ("==", "!=")]
    uppers = [b for b in bounds if b.op in ("<", "<=")]
    lowers = [b for b in bounds if b.op in (">", ">=")]
    if not uppers:
        return None
    top = min(uppers, key=lambda b: (b.number, b.op == "<="))
    low = max(lowers, key=lambda b: (b.number, b.op == ">")) if lowers else None
    where = f"column {column} of `{owner}`" if column is not None else f"`{owner}`"
    edge = ", the far edge included (`<` would leave it out)" if top.op == "<=" else ""
    origin = f"{where} kept by `{top.op} {top.number}` at line {top.line}{edge}"
    return Interval(tidy(top.number), low is None or low.op == ">=", top.op == "<=", origin,
                    low=low.number if low is not None else -math.inf, worked_out=True)


def _subject(side: ast.expr, segment):
    """`pc[:, 0]` -> ("pc", 0); `pc[..., 2]` -> ("pc", 2); `x` -> ("x", None)."""
    if isinstance(side, (ast.Name, ast.Attribute)):
        return segment(side), None
    if isinstance(side, ast.Subscript) and isinstance(side.slice, ast.Tuple) and len(side.slice.elts) == 2:
        first, k = side.slice.elts
        whole = isinstance(first, ast.Slice) and first.lower is None and first.upper is None and first.step is None \
            or isinstance(first, ast.Constant) and first.value is Ellipsis
        if whole and isinstance(k, ast.Constant) and type(k.value) is int and k.value >= 0 \
                and isinstance(side.value, (ast.Name, ast.Attribute)):
            return segment(side.value), k.value
    return None, None
