"""The shape F.pad gives: each (left, right) pair of the pad, from the last dim backwards, adds to
that dim's size (a named T padded by one is `T+1`). A pair summing to 0 (`(1, -1)`: shift right by one)
keeps a named size."""
from __future__ import annotations

from typing import Optional

from ..dims import Shape, value
from . import symbolic
from .tensor_ops import as_int
from .values import SeqVal


def padded(shape: Optional[Shape], pad) -> Optional[Shape]:
    if shape is None or shape.variadic or not isinstance(pad, SeqVal) or len(pad.items) % 2:
        return None
    amounts = [as_int(item) for item in pad.items]
    if any(a is None for a in amounts) or len(amounts) // 2 > len(shape.dims):
        return None
    dims = list(shape.dims)
    for pair in range(len(amounts) // 2):
        axis = len(dims) - 1 - pair
        added = amounts[2 * pair] + amounts[2 * pair + 1]
        if added == 0:
            continue
        size = value(dims[axis])
        if size is None:
            grown = symbolic.total([dims[axis], added])  # a named T padded by one: `T+1`
            if grown is None:
                return None
            dims[axis] = grown
            continue
        dims[axis] = size + added
    return Shape(tuple(dims))
