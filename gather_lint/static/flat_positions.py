"""Coordinates of nonzero entries combined into flat positions: `b * stride + i`.

`adj.nonzero()` of a [B, N, N] tensor gives one row per entry, column k a coordinate along dim k
(0 to size - 1). A batch of graphs flattened to [B * N, ...] is read at `edges[:, 0] * N + edges[:, 1]`;
a stride other than N (the batch size, a constant) reaches past the B * N rows when it is larger:
the last graph's last node sits at (B - 1) * stride + N - 1. Known sizes only: each column's range,
then the range of its product with a known stride and of the sum of two such ranges.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

from ..contract import Domain
from ..dims import value
from .tensor_ops import whole_slice
from .values import DimVal, SeqVal, TensorVal

_ORIGIN = "coordinates of "


@dataclass(frozen=True)
class Coordinates:
    sizes: tuple  # the size of each dim of the tensor whose nonzero entries these are
    what: str  # "`adj_matrix.nonzero()` at line 25"


def after_method(method: str, owner, result, line: int, text: str, kwargs=None):
    """`x.nonzero()` / `torch.argwhere(x)`: rows of coordinates into x's dims."""
    if method not in ("nonzero", "argwhere") or not isinstance(owner, TensorVal) or not isinstance(result, TensorVal) \
            or owner.shape is None or owner.shape.variadic or result.shape is None:
        return result
    return result.with_(columns=Coordinates(owner.shape.dims, f"`{text}.{method}()` at line {line}"))


def column(owner, key, result):
    """`coords[:, k]`: coordinates along dim k, 0 to its size - 1."""
    found = owner.columns if isinstance(owner, TensorVal) else None
    if found is None or not isinstance(result, TensorVal) or not isinstance(key, SeqVal) or key.names \
            or len(key.items) != 2 or not whole_slice(key.items[0]) or not isinstance(key.items[1], DimVal):
        return result
    k = key.items[1].dim
    if not isinstance(k, int) or not -len(found.sizes) <= k < len(found.sizes):
        return result
    size = found.sizes[k]
    if value(size) is None:
        return result
    origin = f"{_ORIGIN}{found.what} along dim {k % len(found.sizes)} (0 to {value(size) - 1})"
    # a 1-d mask's coordinates are its distinct positions; along one dim of several, a coordinate recurs
    return result.with_(domain=Domain(value(size), origin=origin, repeats=len(found.sizes) > 1))


def through_arith(node: ast.BinOp, left, right, result, text: str):
    """`c * stride` and `c1 + c2` of coordinates: the largest value they can make, plus one."""
    if not isinstance(result, TensorVal):
        return result
    top = None
    if isinstance(node.op, ast.Mult):
        coords, stride = (left, right) if _coordinates(left) else (right, left)
        k = value(stride.dim) if isinstance(stride, DimVal) and stride.dim is not None else None
        if _coordinates(coords) and k is not None and k > 0:
            top = (value(coords.domain.size) - 1) * k
    elif isinstance(node.op, ast.Add) and _coordinates(left) and _coordinates(right):
        top = value(left.domain.size) - 1 + value(right.domain.size) - 1
    if top is None:
        return result
    origin = f"{_ORIGIN}{_sources(left, right)} combined into `{text}` (0 to {top})"
    return result.with_(domain=Domain(top + 1, origin=origin, repeats=True))


def _coordinates(t) -> bool:
    return isinstance(t, TensorVal) and t.domain is not None and t.domain.origin.startswith(_ORIGIN) \
        and isinstance(t.domain.size, int) and t.dtype not in ("bool", "float16", "bfloat16", "float32", "float64")


def _sources(left, right) -> str:
    for side in (left, right):
        if _coordinates(side):
            origin = side.domain.origin[len(_ORIGIN):]
            return origin.split(" along dim ")[0].split(" combined into ")[0]
    return ""
