"""Fractions scaled to a size and made integer: whether the size itself is among the values.

`torch.rand(B)` lies in [0, 1), so `(torch.rand(B) * N).long()` stays below N. `1 - u`, `1 - u ** 3`
and `torch.linspace(0, 1, S)` reach 1 itself (`1 - u ** 3` rounds to exactly 1.0 in float32 for
every u below about 0.003), and so do `torch.linspace(0, N, S)` and a `.round()` / `.ceil()` of
values just below N: made integer, those values include N, one past a table of N entries (the
timestep sampled for a scheduler of N steps, a position scaled to a length). The integer result
gets a value range of N + 1, which the existing range checks hold against the indexed size.

Only these spellings are followed; any other op on the floats forgets what they were.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import Optional

from ..contract import Domain
from ..dims import Dim, dim_text, value
from .value_ranges import one_more
from .values import DimVal, Literal, TensorVal


@dataclass(frozen=True)
class Fraction:
    """Floats in [0, top]: `reaches_zero` / `reaches_top` say whether each end is among the values."""

    top: Dim
    reaches_zero: bool
    reaches_top: bool
    origin: str  # how they were made, for messages: "`torch.rand()` at line 46"


_INT_CONVERSIONS = ("long", "int")
_INT_DTYPES = ("int64", "int32")
_KEEPS = ("view", "reshape", "flatten", "unsqueeze", "squeeze", "clone", "detach", "contiguous", "float",
          "double", "to", "cpu", "cuda", "expand", "expand_as", "view_as", "floor", "trunc")
_ROUNDS_UP = ("round", "ceil")
_FLOATS = ("float32", "float64", "float16", "bfloat16", None)


def uniform(line: int) -> Fraction:
    """`torch.rand(...)` / `torch.rand_like(x)`: [0, 1), 1 excluded."""
    return Fraction(1, True, False, f"`torch.rand()` at line {line}")


def spaced(start, end, line: int) -> Optional[Fraction]:
    """`torch.linspace(0, top, steps)` (or from top down to 0): both ends are among the values."""
    low, high = _constant(start), _constant(end)
    if low == 0 and isinstance(end, DimVal) and end.dim is not None and (value(end.dim) or 1) > 0:
        return Fraction(end.dim, True, True, f"`torch.linspace()` at line {line}, {dim_text(end.dim)} included")
    if high == 0 and isinstance(start, DimVal) and start.dim is not None and (value(start.dim) or 1) > 0:
        return Fraction(start.dim, True, True, f"`torch.linspace()` at line {line}, {dim_text(start.dim)} included")
    return None


def through_arith(node: ast.BinOp, left, right, result):
    """`1 - u`, `u ** k`, `u * N` / `N * u` on a fraction; any other arithmetic forgets it."""
    if not isinstance(result, TensorVal):
        return result
    made = _arith(type(node.op), left, right)
    return result.with_(fraction=made) if made is not None or result.fraction is not None else result


def _arith(op: type, left, right) -> Optional[Fraction]:
    lf = left.fraction if isinstance(left, TensorVal) else None
    rf = right.fraction if isinstance(right, TensorVal) else None
    if op is ast.Sub and rf is not None and value(rf.top) == 1 and _constant(left) == 1:
        where = f"1 minus values in [0, 1{']' if rf.reaches_top else ')'} from {rf.origin}"
        return Fraction(1, rf.reaches_top, rf.reaches_zero, where)
    if op is ast.Pow and lf is not None and value(lf.top) == 1 and (_constant(right) or 0) > 0:
        return lf  # powers of [0, 1] stay in [0, 1], both ends where they were
    if op is ast.Mult:
        fraction, size = (lf, right) if lf is not None else (rf, left)
        if fraction is not None and value(fraction.top) == 1 and isinstance(size, DimVal) and size.dim is not None \
                and (value(size.dim) or 1) > 0:
            return replace(fraction, top=size.dim, origin=f"{fraction.origin}, scaled by {dim_text(size.dim)}")
    return None


def after_method(method: str, owner, result, line: int, args=(), kwargs=None):
    """`.long()` / `.to(torch.long)` of a fraction reaching its top N: integers up to N, a range of
    N + 1. `.round()` / `.ceil()` reach the top of values just below it."""
    fraction = owner.fraction if isinstance(owner, TensorVal) else None
    if fraction is None or not isinstance(result, TensorVal):
        return result
    if method in ("mul", "multiply", "pow") and len(args) == 1 and not kwargs:  # u.mul(N), u.pow(3)
        return result.with_(fraction=_arith(ast.Pow if method == "pow" else ast.Mult, owner, args[0]))
    if method in _ROUNDS_UP and not args and not kwargs and value(fraction.top) != 1:
        return result.with_(fraction=replace(fraction, reaches_top=True,
                                             origin=f"{fraction.origin}, rounded up by `.{method}()` at line {line}"))
    if to_integer(method, args, kwargs):
        if owner.dtype not in _FLOATS:
            return result  # a 0/1 mask made integer stays a mask (running_counts)
        if not fraction.reaches_top:
            return result.with_(fraction=None)
        origin = (f"integers up to {dim_text(fraction.top)} included ({fraction.origin}, made integer at line "
                  f"{line})")
        base = result.domain or Domain()
        if base.origin:  # why the values repeat (rounded coordinates) still matters to other rules (GL013)
            origin = f"{base.origin}, {origin}"
        return result.with_(fraction=None, domain=replace(base, size=one_more(fraction.top), origin=origin,
                                                          category=False))
    return result.with_(fraction=fraction if method in _KEEPS else None)


def to_integer(method: str, args, kwargs) -> bool:
    if method in _INT_CONVERSIONS:
        return True
    if method not in ("to", "type"):
        return False
    dtype = (kwargs or {}).get("dtype", args[0] if args else None)
    return isinstance(dtype, Literal) and isinstance(dtype.value, str) and dtype.value.startswith("dtype:") \
        and dtype.value[len("dtype:"):] in _INT_DTYPES


def _constant(v) -> Optional[float]:
    if isinstance(v, DimVal) and isinstance(v.dim, int):
        return v.dim
    if isinstance(v, Literal) and isinstance(v.value, (int, float)) and not isinstance(v.value, bool):
        return v.value
    return None
