"""An element read back from a list or tuple whose elements share one known value.

`parts = x.chunk(2, -1); parts[0]`, `cache[i]` of a list appended in a loop, `rows = x.unbind(0);
rows[2]`, `past[layer]` of a tuple of like (key, value) pairs: the pieces all have one abstract
value, so any element read by position has it, whatever the position. A slice of such a list is the
same list; a key that cannot be a position (a string, a tensor of several values) tells nothing."""
from __future__ import annotations

from . import tensor_ops as ops
from .values import DimVal, SeqVal, TensorVal

NOTHING = object()


def element(owner, key):
    """The value of `owner[key]`, or NOTHING when this module cannot say (the caller goes on)."""
    if isinstance(owner, ops.Repeated):
        if isinstance(key, ops.SliceVal):
            return owner
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
