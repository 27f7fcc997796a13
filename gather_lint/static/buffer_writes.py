"""What an integer buffer of zeros holds after writes into it: the zeros and what each write put in.

`indices = torch.zeros(B, N, dtype=torch.long)`, then `indices[b, :n] = cell_ids(points)` in a loop: the
buffer's values are 0 and the written ids, so a bound the ids keep (cells of points on the far edge of a
grid reach its size) holds for the buffer, wherever it is used as an index later. A write whose values are
not bounded, or any other change, leaves the buffer's values unknown.
"""
from __future__ import annotations

from dataclasses import replace

from ..dims import value
from .values import WRITTEN_INTO_ZEROS, TensorVal

_INTS = ("int64", "int32")


def written(before, after, value_written, line: int):
    """`buf[...] = v` with `before` the buffer as it was and `after` what the other facts left of it."""
    if not isinstance(before, TensorVal) or not isinstance(after, TensorVal) or before.dtype not in _INTS \
            or not isinstance(value_written, TensorVal):
        return after  # a number written in is value_ranges.written's
    fresh = before.filled == "zeros" and before.domain is None
    kept = before.domain is not None and before.domain.origin.startswith(WRITTEN_INTO_ZEROS)
    if not (fresh or kept):
        return after
    bound = _bound(value_written)
    if bound is None or kept and value(before.domain.size) is None:
        return after.with_(domain=None, filled=None)
    old = before.domain if kept else None
    size = bound.size if old is None else max(value(bound.size), value(old.size))
    origin = old.origin if old is not None and value(old.size) >= value(bound.size) else \
        f"{WRITTEN_INTO_ZEROS}{bound.origin} (line {line})"
    return after.with_(filled=None, domain=replace(bound, size=size, origin=origin, repeats=True))


def _bound(v):
    """The bound of integer values written in: a known size, no padding or ids of a vocabulary among them."""
    if not isinstance(v, TensorVal) or v.dtype not in _INTS + (None,):
        return None
    d = v.domain
    if d is None or value(d.size) is None or d.category or d.sentinel is not None or d.made_float:
        return None
    if d.rounded is not None and value(d.size) > d.rounded[1]:
        return None  # integers past what the float held exactly: their top is rounding's (rounded_ranges)
    return replace(d, rounded=None, rounded_at=None)
