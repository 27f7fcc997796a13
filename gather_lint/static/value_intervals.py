"""Intervals of a tensor's values, and whether a size is among them once they are made integer.

`torch.rand(B)` lies in [0, 1), so `(torch.rand(B) * N).long()` stays below N. `1 - u`, `1 - u ** 3`
and `torch.linspace(0, 1, S)` reach 1 itself (`1 - u ** 3` rounds to exactly 1.0 in float32 for
every u below about 0.003), and so do `torch.linspace(0, N, S)` and a `.round()` / `.ceil()` of
values just below N. `x.clamp(0, 1)` holds both ends, and points kept by `pc[:, 0] <= x_max`
(mask_bounds.py) hold x_max in that column: `((pc[:, 0] - x_min) / cell).long()` reaches
(x_max - x_min) / cell. Made integer, values that reach N include N, one past a table of N entries
(the timestep sampled for a scheduler of N steps, a position scaled to a length, the cell of a point
on the far edge of a grid). The integer result gets a value range of N + 1, which the existing range
checks hold against the indexed size.

Only these spellings are followed (adding, subtracting, multiplying or dividing by a number, powers of
[0, 1], clamps, floor and truncation); any other op on the floats forgets what they were.
"""
from __future__ import annotations

import ast
import math
from dataclasses import dataclass, replace
from typing import Optional

from ..contract import Domain
from ..dims import Dim, dim_text, value
from .value_ranges import one_more
from .values import DimVal, Literal, TensorVal


@dataclass(frozen=True)
class Interval:
    """Values in [low, top]: `reaches_low` / `reaches_top` say whether each end is among the values. `top` is a
    size (named or a number); `low` a number."""

    top: Dim
    reaches_low: bool
    reaches_top: bool
    origin: str  # how they were made, for messages: "`torch.rand()` at line 46"
    low: float = 0
    worked_out: bool = False  # ends computed from the code's numbers (a clamp, a filter, arithmetic): a bound only


_INT_CONVERSIONS = ("long", "int")
_INT_DTYPES = ("int64", "int32")
_KEEPS = ("view", "reshape", "flatten", "unsqueeze", "squeeze", "clone", "detach", "contiguous", "float",
          "double", "to", "cpu", "cuda", "expand", "expand_as", "view_as")
_TRUNCATES = ("floor", "trunc")  # of values >= 0 both give the integer part
_ROUNDS_UP = ("round", "ceil")
_CLAMPS = ("clamp", "clip")
_FLOATS = ("float32", "float64", "float16", "bfloat16", None)


def uniform(line: int) -> Interval:
    """`torch.rand(...)` / `torch.rand_like(x)`: [0, 1), 1 excluded."""
    return Interval(1, True, False, f"`torch.rand()` at line {line}")


def spaced(start, end, line: int) -> Optional[Interval]:
    """`torch.linspace(0, top, steps)` (or from top down to 0): both ends are among the values."""
    low, high = constant(start), constant(end)
    if low == 0 and isinstance(end, DimVal) and end.dim is not None and (value(end.dim) or 1) > 0:
        return Interval(end.dim, True, True, f"`torch.linspace()` at line {line}, {dim_text(end.dim)} included")
    if high == 0 and isinstance(start, DimVal) and start.dim is not None and (value(start.dim) or 1) > 0:
        return Interval(start.dim, True, True, f"`torch.linspace()` at line {line}, {dim_text(start.dim)} included")
    return None


def through_arith(node: ast.BinOp, left, right, result):
    """`1 - u`, `u ** k`, `u * N`, `(x - x_min) / cell` on an interval; any other arithmetic forgets it."""
    if not isinstance(result, TensorVal):
        return result
    made = _arith(type(node.op), left, right)
    return result.with_(interval=made) if made is not None or result.interval is not None else result


def _arith(op: type, left, right) -> Optional[Interval]:
    li = left.interval if isinstance(left, TensorVal) else None
    ri = right.interval if isinstance(right, TensorVal) else None
    if op is ast.Sub and ri is not None and value(ri.top) == 1 and ri.low == 0 and constant(left) == 1:
        where = f"1 minus values in [0, 1{']' if ri.reaches_top else ')'} from {ri.origin}"
        return Interval(1, ri.reaches_top, ri.reaches_low, where)
    if op is ast.Pow and li is not None and value(li.top) == 1 and li.low == 0 and (constant(right) or 0) > 0:
        return li  # powers of [0, 1] stay in [0, 1], both ends where they were
    if op is ast.Mult:
        interval, size = (li, right) if li is not None else (ri, left)
        if interval is not None and value(interval.top) == 1 and interval.low == 0 and isinstance(size, DimVal) \
                and size.dim is not None and (value(size.dim) or 1) > 0:
            return replace(interval, top=size.dim, origin=f"{interval.origin}, scaled by {dim_text(size.dim)}")
    return _affine(op, li, left, ri, right)


def _affine(op: type, li: Optional[Interval], left, ri: Optional[Interval], right) -> Optional[Interval]:
    """`x + c`, `x - c`, `x * c`, `x / c` (c > 0 for the last two) and `c + x`, `c * x` of numeric ends."""
    interval, number, first = (li, constant(right), True) if li is not None else (ri, constant(left), False)
    top = _number(interval.top) if interval is not None else None
    if top is None or number is None:
        return None
    low, moved = interval.low, replace(interval, worked_out=True)
    if op is ast.Add:
        return replace(moved, low=low + number, top=tidy(top + number))
    if op is ast.Sub and first:
        return replace(moved, low=low - number, top=tidy(top - number))
    if op is ast.Mult and number > 0:
        return replace(moved, low=low * number, top=tidy(top * number))
    if op is ast.Div and first and number > 0:
        return replace(moved, low=low / number, top=tidy(top / number))
    return None


def clamped(owner, result, args, kwargs, line: int):
    """`x.clamp(lo, hi)` of floats with both ends numbers: values in [lo, hi], each end reached (the clamp is
    there because values go past it); an interval already inside stays as it was."""
    lo = constant(args[0] if args else kwargs.get("min"))
    hi = constant(args[1] if len(args) > 1 else kwargs.get("max"))
    if lo is None or hi is None or lo > hi or not isinstance(result, TensorVal) or owner.dtype not in _FLOATS:
        return result
    old = owner.interval
    top = _number(old.top) if old is not None else None
    if top is not None and lo <= old.low and top <= hi:
        return result.with_(interval=old)
    return result.with_(interval=Interval(tidy(hi), True, True, f"values clamped to [{lo}, {hi}] at line {line}",
                                          low=lo, worked_out=True))


def per_column(result, bounds, line: int):
    """`minimum(coords, tensor([7, 11, 9]))`: each column of the last dim capped by its own bound, reached (the
    cap is there because values go past it). `bounds`: exact_values.Entries, one per column."""
    shape = result.shape if isinstance(result, TensorVal) else None
    if bounds is None or len(bounds.dims) != 1 or bounds.dims[0] < 2 or shape is None or shape.variadic \
            or not shape.dims or value(shape.dims[-1]) != bounds.dims[0]:
        return result
    columns = tuple((j, Interval(top, False, True, f"column {j} capped at {top} at line {line}", worked_out=True))
                    for j, top in enumerate(bounds.values))
    return result.with_(column_intervals=columns)


def column_read(picked, interval: Interval):
    """`ijk[:, 2]` of integer columns capped one by one (per_column): column 2's own cap, not the largest of them,
    bounds what it holds."""
    if not isinstance(picked, TensorVal) or picked.dtype not in _INT_DTYPES or not interval.worked_out \
            or not interval.reaches_top or not isinstance(interval.top, int) or interval.top < 0:
        return picked
    domain = Domain(one_more(interval.top), origin=f"values of {interval.origin}, {interval.top} included")
    return picked.with_(domain=domain)


def after_method(method: str, owner, result, line: int, args=(), kwargs=None):
    """`.long()` / `.to(torch.long)` of an interval reaching its top N: integers up to N, a range of
    N + 1. `.round()` / `.ceil()` reach the top of values just below it."""
    if method in _CLAMPS and isinstance(owner, TensorVal):
        return clamped(owner, result, args, kwargs or {}, line)
    interval = owner.interval if isinstance(owner, TensorVal) else None
    if interval is None or not isinstance(result, TensorVal):
        return result
    if method in ("mul", "multiply", "pow", "add", "sub", "div") and len(args) == 1 and not kwargs:  # u.mul(N)
        op = {"pow": ast.Pow, "add": ast.Add, "sub": ast.Sub, "div": ast.Div}.get(method, ast.Mult)
        return result.with_(interval=_arith(op, owner, args[0]))
    if method in _ROUNDS_UP and not args and not kwargs:
        return result.with_(interval=_rounded_up(method, interval, line))
    if method in _TRUNCATES and not args and not kwargs:
        return result.with_(interval=interval if interval.low >= 0 else None)
    if to_integer(method, args, kwargs):
        if owner.dtype not in _FLOATS:
            return result  # a 0/1 mask made integer stays a mask (running_counts)
        return _made_integer(interval, result, line)
    return result.with_(interval=interval if method in _KEEPS else None)


def _rounded_up(method: str, interval: Interval, line: int) -> Optional[Interval]:
    """`.round()` / `.ceil()`: the top of values just below it is reached (a number top: rounded the same way)."""
    top = _number(interval.top)
    if value(interval.top) == 1 and interval.low == 0:
        return None  # 0s and 1s: no positions
    made = interval.top if top is None else (math.ceil(top) if method == "ceil" else round(top))
    return replace(interval, top=made, reaches_top=True,
                   origin=f"{interval.origin}, rounded up by `.{method}()` at line {line}")


def _made_integer(interval: Interval, result: TensorVal, line: int) -> TensorVal:
    """Truncated to integers: the largest one the values reach, when it is reached, as a range one past it."""
    if interval.low <= -1:
        return result.with_(interval=None)  # negative integers: not positions
    top = _number(interval.top)
    if top is not None and abs(top - round(top)) < 1e-6 * max(1.0, abs(top)):
        top = round(top)  # 7.9999999 or 8.0000001 worked out in Python: float32 may land on either side of 8
    if top is not None and not float(top).is_integer():
        reached = math.floor(top)  # values between floor(top) and top truncate to floor(top)
    elif interval.reaches_top:
        reached = interval.top if top is None else int(top)
    else:
        return result.with_(interval=None)
    origin = f"integers up to {dim_text(reached)} included ({interval.origin}, made integer at line {line})"
    base = result.domain or Domain()
    if base.origin:  # why the values repeat (rounded coordinates) still matters to other rules (GL013)
        origin = f"{base.origin}, {origin}"
    # a number worked out from the code's constants is a bound, no dim's positions (GL004 does not compare it)
    return result.with_(interval=None, domain=replace(base, size=one_more(reached), origin=origin, category=False,
                                                      bound_only=base.bound_only or interval.worked_out,
                                                      box=interval.worked_out))


def to_integer(method: str, args, kwargs) -> bool:
    if method in _INT_CONVERSIONS:
        return True
    if method not in ("to", "type"):
        return False
    dtype = (kwargs or {}).get("dtype", args[0] if args else None)
    return isinstance(dtype, Literal) and isinstance(dtype.value, str) and dtype.value.startswith("dtype:") \
        and dtype.value[len("dtype:"):] in _INT_DTYPES


def _number(top: Dim) -> Optional[float]:
    """A top written as a number (not a named size, whose messages name it)."""
    return top if isinstance(top, (int, float)) and not isinstance(top, bool) else None


def tidy(x: float):
    """An integral float as an int (a grid of 8.0 cells is 8), to keep sizes comparable."""
    return int(x) if isinstance(x, float) and x.is_integer() else x


def constant(v) -> Optional[float]:
    """A number the code wrote or worked out (an int size, a float)."""
    if isinstance(v, DimVal) and isinstance(v.dim, int):
        return v.dim
    if isinstance(v, Literal) and isinstance(v.value, (int, float)) and not isinstance(v.value, bool):
        return v.value
    return None
