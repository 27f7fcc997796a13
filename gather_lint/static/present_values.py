"""Values the range checks know are among a tensor's values, forgotten when the code masks or overwrites
some of them.

Scaled fractions, shifted draws, running counts, flattened coordinates and written ids say which
largest value the tensor holds (its range reaches the size it was made for). `x[x > m] = m`,
`x[mask] = 0`, `x.masked_fill(mask, 0)` replace some values: the largest may be among them, so the
claim no longer holds (a clamp says its own bound: value_ranges.clamped).
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Optional

from ..dims import value
from . import arange_positions
from .values import ALL_EQUAL, INCLUDES, TensorVal

# how those modules begin or mark their origins
_STARTS = ("integers up to ", "running counts of ", "coordinates of ", "values written at line ", arange_positions.ORIGIN)
_MARKS = (", shifted by ",)
_MASKING = ("masked_fill", "masked_fill_", "index_fill", "index_fill_", "masked_scatter", "masked_scatter_",
            "index_put", "index_put_", "scatter", "scatter_", "fill_diagonal_")


def forgotten(t, in_place: bool = False):
    """`t` without a claim of what it holds, when it has one (and, changed in place, without the range
    its floats were made in)."""
    if in_place and isinstance(t, TensorVal) and (t.interval is not None or t.column_intervals is not None
                                                  or t.parts is not None):
        t = t.with_(interval=None, column_intervals=None, parts=None)
    if isinstance(t, TensorVal) and t.entries is not None:
        t = t.with_(entries=None)  # some entries were written over
    if not isinstance(t, TensorVal) or t.domain is None or t.domain.size is None:
        return t
    if in_place and t.domain.origin.startswith(_FILLED):
        # `first = ones_like(x); first[1:] = ...`: the fill is among the values still, no longer all of them
        return t.with_(domain=replace(t.domain, origin=_CLAIMS[1] + t.domain.origin[len(_FILLED):]))
    origin = t.domain.origin
    if origin.startswith(_STARTS) or any(mark in origin for mark in _MARKS):
        return t.with_(domain=replace(t.domain, size=None, origin=""))
    return t


def after_method(method: str, result, call=None):
    result = forgotten(result) if method in _MASKING else result
    return without_fill(result) if placeholder_fill(call, in_place=False) else result


_KEEPS_VALUES = ("requires_grad_", "detach_", "share_memory_", "retain_grad")


def placeholder_fill(call, in_place: bool = True) -> bool:
    """`buf.scatter_reduce_(d, i, v, "amin", include_self=False)`: the reduction ignores what `buf` held where
    it writes, so its fill (`torch.full(n, N)`) is a placeholder for "no entry", not a value the code meant
    to keep; whether any position stays unwritten is up to the data."""
    return isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
        and call.func.attr in (_REDUCERS if in_place else _REDUCERS + ("scatter_reduce", "index_reduce")) \
        and any(k.arg == "include_self" and isinstance(k.value, ast.Constant) and k.value.value is False
                for k in call.keywords)


def without_fill(t):
    """`t` without the claim that its fill value (or a value it includes) is among its values."""
    if _claim(t) is not None:
        return t.with_(domain=replace(t.domain, size=None, origin=""))
    return t


_FILLED = ALL_EQUAL  # constant_ids.py's origin
# and a value written among others (value_ranges.written, constant_ids.through_cat), its largest
_CLAIMS = (_FILLED, INCLUDES)


def _claim(t) -> Optional[str]:
    """The prefix of `t`'s fill (or included-value) claim, or None when it makes none."""
    if not isinstance(t, TensorVal) or t.domain is None:
        return None
    return next((prefix for prefix in _CLAIMS if t.domain.origin.startswith(prefix)), None)


def fill_text(t) -> Optional[str]:
    """How a fill claim names its constant (`n`, `4`), known or not; also the largest value a tensor is known
    to include (`values that include 255 (written at line 9)`: `seg[:3] = 255`)."""
    prefix = _claim(t)
    return t.domain.origin[len(prefix):].split(" (")[0] if prefix is not None else None


def fill_value(t) -> Optional[int]:
    """The constant a fill (or included-value) claim names, when it is a known int (its size is one past it)."""
    if _claim(t) is None:
        return None
    size = value(t.domain.size)
    return size - 1 if size is not None else None


_REDUCERS = ("scatter_reduce_", "index_reduce_")


def changed_in_place(call) -> Optional[str]:
    """The name an in-place method writes (`x.clamp_(...)`, `x.masked_fill_(...)`, also through a view of it:
    `x[:, 0].fill_(9)`, `x.data.zero_()`), else None."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr.endswith("_")
            and not call.func.attr.startswith("_") and call.func.attr not in _KEEPS_VALUES):
        return None
    receiver = call.func.value
    while isinstance(receiver, ast.Subscript) or isinstance(receiver, ast.Attribute) and receiver.attr == "data":
        receiver = receiver.value
    return receiver.id if isinstance(receiver, ast.Name) else None
