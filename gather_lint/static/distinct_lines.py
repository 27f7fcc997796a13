"""Positions distinct along a dim, the masks that pick one of them, and the rows such a mask names.

`topk(k, dim=-1).indices`, `sort(dim).indices` and `argsort(dim)` hold each position of their dim at most once
along it. `selected == e` of such a tensor and one value is true at most once along that dim, so
`torch.where(selected == e)` (or `.nonzero(as_tuple=True)`) of a 2-d mask true at most once per row names each
row at most once: `out[rows] += w[rows, cols] * f(x[rows])` (the routing loop of a mixture of experts) writes
each row once, whatever the rows' name says.

Both facts are kept as `(axis, shape)` on the tensor and read only while it still has that shape: a view, a
flatten or a slice of it says no more.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from ..contract import Domain
from ..dims import normalize_dim
from .tensor_ops import Repeated
from .values import DimVal, Literal, SeqVal, TensorVal


_DIM_AT = {"topk": 1, "sort": 0, "argsort": 0}  # where each takes its dim when given by position


def after_method(name: str, owner, args, kwargs, result):
    """The indices of `x.topk(k, dim)` / `x.sort(dim)` / `x.argsort(dim)` (the last dim by default): distinct
    along that dim. Of an input whose shape is not known, only a dim counted from the end says which one."""
    if name not in _DIM_AT or not isinstance(owner, TensorVal):
        return result
    at = _DIM_AT[name]
    dim = kwargs.get("dim", args[at] if len(args) > at else DimVal(-1))
    axis = dim.dim if isinstance(dim, DimVal) and isinstance(dim.dim, int) else None
    indices = result.items[1] if isinstance(result, SeqVal) and len(result.items) == 2 else result
    if not isinstance(indices, TensorVal) or axis is None:
        return result
    shape = indices.shape
    if shape is None or shape.variadic:
        if axis >= 0:
            return result
    elif normalize_dim(axis, len(shape.dims)) is None:
        return result
    else:
        axis = normalize_dim(axis, len(shape.dims))
    marked = indices.with_(distinct_along=(axis, shape))
    return replace(result, items=(result.items[0], marked)) if isinstance(result, SeqVal) else marked


def _live(fact, t: TensorVal) -> Optional[int]:
    return fact[0] if fact is not None and t.shape == fact[1] else None


def compared(left, right, made_mask):
    """`x == v` (either side) of x distinct along a dim and one value (a number, a 0-d tensor): true at most
    once along that dim."""
    if not isinstance(made_mask, TensorVal):
        return made_mask
    for tensor, other in ((left, right), (right, left)):
        if not isinstance(tensor, TensorVal) or tensor.distinct_along is None:
            continue
        axis = _live(tensor.distinct_along, tensor)
        one_value = isinstance(other, (DimVal, Literal)) or isinstance(other, TensorVal) and other.shape is not None \
            and not other.shape.variadic and not other.shape.dims
        if axis is not None and one_value and made_mask.shape == tensor.shape:
            return made_mask.with_(single_along=(axis, made_mask.shape))
    return made_mask


class RowsOnce(Repeated):
    """`torch.where(mask)` of a mask true at most once along its last dim, its rank unknown: unpacked into two
    names (`rows, cols = torch.where(mask)`) the mask is 2-d, and the rows are named once each."""

    def unpacked(self, count: int) -> list:
        if count != 2 or not isinstance(self.element, TensorVal):
            return super().unpacked(count)
        return [self.element.with_(domain=_ONCE), self.element]


_ONCE = Domain(None, origin="rows of a mask true at most once per row, each named once")


def rows_named(mask, positions):
    """`torch.where(mask)` of a 2-d mask true at most once per row: its row positions, each at most once."""
    axis = _live(mask.single_along, mask) if isinstance(mask, TensorVal) and mask.single_along is not None else None
    if axis is None:
        return positions
    if mask.shape is None and axis == -1 and type(positions) is Repeated:
        return RowsOnce(positions.element, positions.length)
    if not isinstance(positions, SeqVal) or len(positions.items) != 2 or mask.shape is None \
            or len(mask.shape.dims) != 2 or normalize_dim(axis, 2) != 1 or not isinstance(positions.items[0], TensorVal):
        return positions
    distinct = replace(_ONCE, size=mask.shape.dims[0])
    return replace(positions, items=(positions.items[0].with_(domain=distinct),) + positions.items[1:])
