"""Running counts of a mask as positions: `mask.cumsum(dim)` reaches the length of the dim.

RoBERTa-style position ids count the non-padding tokens of each row (`ids.ne(pad).int().cumsum(1)`,
zeroed at the padding by `* mask`) and start after the padding id (`+ pad`): a row of L tokens without
padding reaches position L + pad, which a table of max_position_embeddings rows must hold. The counts
get a value range of L + 1 (0 to L), kept through the zeroing and shifted by a known offset; the
existing range checks hold it against the table where the positions are looked up.

A 0/1 mask is a comparison's bool result, or that result made numeric (`.int()`, `.long()`,
`.float()`): it is marked as values between 0 and 1 (a value_intervals.Interval).
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace
from typing import Optional

from ..contract import Domain
from ..dims import Sym, dim_text, normalize_dim, value
from .value_intervals import Interval
from .tensor_ops import whole_slice
from .values import DimVal, Literal, SeqVal, TensorVal

_NUMERIC = ("int", "long", "float", "double", "half", "to", "type", "type_as")
_KEEPS = ("int", "long", "to", "type", "type_as", "contiguous", "clone", "detach", "cpu", "cuda")  # axes unchanged
_ORIGIN = "running counts of "
_AXIS = re.compile(r"along dim (\d+) \(cumsum")  # the counted axis, written in the origin


def after_method(method: str, owner, result, line: int, args=(), kwargs=None):
    """A bool mask made numeric stays a 0/1 mask; its cumsum counts; counts keep through value-keeping
    methods."""
    if not isinstance(owner, TensorVal) or not isinstance(result, TensorVal):
        return result
    if method in _NUMERIC and owner.dtype == "bool" and result.dtype != "bool":
        return result.with_(interval=Interval(1, True, True, f"a 0/1 mask made numeric at line {line}"))
    if method == "cumsum":
        return _counted(owner, result, args, kwargs or {}, line)
    if _counts(owner) and method in _KEEPS and result.dtype not in ("bool", "float16", "bfloat16", "float32", "float64"):
        return result.with_(domain=owner.domain)
    return result


def _is_mask(t: TensorVal) -> bool:
    interval = t.interval
    return t.dtype == "bool" or (interval is not None and value(interval.top) == 1 and t.dtype not in (
        "float16", "bfloat16", "float32", "float64"))


def _counted(owner: TensorVal, result: TensorVal, args, kwargs: dict, line: int) -> TensorVal:
    dim = kwargs.get("dim", args[0] if args else None)
    if not _is_mask(owner) or not isinstance(dim, DimVal) or not isinstance(dim.dim, int) or owner.shape is None \
            or owner.shape.variadic:
        return result
    axis = normalize_dim(dim.dim, len(owner.shape.dims))
    n = owner.shape.dims[axis] if axis is not None else None
    if n is None:
        return result
    origin = f"{_ORIGIN}a mask along dim {axis} (cumsum at line {line}), 0 to {dim_text(n)}"
    return result.with_(domain=Domain(_plus(n, 1), origin=origin, repeats=True), interval=None)


def _counts(t) -> bool:
    return isinstance(t, TensorVal) and t.domain is not None and t.domain.origin.startswith(_ORIGIN) \
        and t.domain.size is not None


def through_arith(node: ast.BinOp, left, right, result):
    """counts * mask (zeroed at the padding) keeps the counts' range; counts + k shifts it by k."""
    if not isinstance(result, TensorVal):
        return result
    if isinstance(node.op, ast.Mult):
        counts, other = (left, right) if _counts(left) else (right, left)
        if _counts(counts) and isinstance(other, TensorVal) and _is_mask(other) and _same_rank(counts, result):
            return result.with_(domain=counts.domain)
    if isinstance(node.op, ast.Add):
        counts, other = (left, right) if _counts(left) else (right, left)
        shift = other.dim if isinstance(other, DimVal) else None
        if _counts(counts) and shift is not None and (value(shift) or 0) > 0 and _same_rank(counts, result):
            size = counts.domain.size
            origin = f"{counts.domain.origin}, plus {dim_text(shift)}"
            return result.with_(domain=replace(counts.domain, size=_plus(size, shift), origin=origin))
    return result


def _plus(d, k) -> Optional[object]:
    dv, kv = value(d), value(k)
    if isinstance(d, int) and isinstance(k, int):
        return d + k
    return Sym(f"{dim_text(d)} + {dim_text(k)}", size=dv + kv if dv is not None and kv is not None else None)


def _same_rank(a: TensorVal, b: TensorVal) -> bool:
    """The counted axis is still where it was (a broadcast that adds dims moves it)."""
    return a.shape is not None and b.shape is not None and not a.shape.variadic and not b.shape.variadic \
        and len(a.shape.dims) == len(b.shape.dims)


def after_subscript(owner, key, result):
    """Rows of the counts keep them; along the counted axis only the last entry (`[:, -1]`) holds the
    full count: a slice or another entry of it holds fewer."""
    if not _counts(owner) or not isinstance(result, TensorVal) or result.domain != owner.domain:
        return result
    found = _AXIS.search(owner.domain.origin)
    items = list(key.items) if isinstance(key, SeqVal) and not key.names else [key]
    if found is None or any(isinstance(i, Literal) and i.value is Ellipsis for i in items):
        return result.with_(domain=None)
    axis, position = int(found.group(1)), 0
    for item in items:
        if isinstance(item, Literal) and item.value is None:
            continue  # a new axis: it selects nothing
        whole = whole_slice(item)
        if position == axis and not (whole or (isinstance(item, DimVal) and item.dim == -1)):
            return result.with_(domain=None)
        if position != axis and not (whole or isinstance(item, DimVal)):
            return result.with_(domain=None)
        position += 1
    return result
