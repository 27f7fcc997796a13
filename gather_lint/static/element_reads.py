"""An element read back from a list or tuple whose elements share one known value.

`parts = x.chunk(2, -1); parts[0]`, `cache[i]` of a list appended in a loop, `rows = x.unbind(0);
rows[2]`, `past[layer]` of a tuple of like (key, value) pairs: the pieces all have one abstract
value, so any element read by position has it, whatever the position. A slice of such a list is the
same list (of its length only for `[:]`, or bounds that say it); a key that cannot be a position (a string, a tensor of several values) tells nothing."""
from __future__ import annotations

from . import tensor_ops as ops
from .values import DimVal, SeqVal, TensorVal

NOTHING = object()


def element(owner, key):
    """The value of `owner[key]`, or NOTHING when this module cannot say (the caller goes on)."""
    if isinstance(owner, ops.Repeated):
        if isinstance(key, ops.SliceVal):  # the same items; as many only for `[:]` (a window is shorter)
            return owner if ops.whole_slice(key) else ops.Repeated(owner.element, _sliced_length(owner.length, key))
        return owner.element if _position(key) else NOTHING
    if isinstance(owner, SeqVal) and owner.items and not isinstance(key, ops.SliceVal) and _position(key) \
            and ops.as_int(key) is None and all(item == owner.items[0] for item in owner.items[1:]):
        return owner.items[0]  # past[i] with i unknown: every item is the same fact
    return NOTHING


def _position(key) -> bool:
    """A key that can only index a list by position: an int, or something unknown (a loop counter)."""
    if key is None or isinstance(key, DimVal):
        return True
    return isinstance(key, TensorVal) and key.shape is not None and not key.shape.variadic and not key.shape.dims \
        and key.dtype in ("int64", "int32")


def _sliced_length(length, key):
    """len(items[a:b]) for a known length and int bounds (no step); None when any of them is unknown."""
    from ..dims import value

    n = value(length)
    bounds = [ops.as_int(v) if v is not None else None for v in (key.lower, key.upper)]
    if not isinstance(n, int) or key.step is not None or any(b is None and v is not None
                                                             for b, v in zip(bounds, (key.lower, key.upper))):
        return None
    return len(range(n)[slice(*bounds)])
