"""The value facts of each part of a tensor stacked from parts: a record's columns read back one by one.

`triples = torch.stack([heads, rels, tails], dim=1)` holds entity ids in columns 0 and 2 and relation ids in
column 1; `edge_index = torch.stack([src, dst])` holds source positions in row 0 and target positions in row 1.
Joined, the values are of no one kind, so the stack keeps no range of its own; read back one part at a time
(`triples[:, 1]`, `triples[:, 1:2].view(-1)`, `edge_index[0]`, `h, r, t = triples.unbind(1)`, `src, dst =
edge_index`), each part has the range its piece had, and the range checks hold it against the table it
indexes (relation ids looked up in the entity table).

The fact is `TensorVal.parts = (axis, shape, (domain, ...))`: the range of each one-wide piece along `axis` of a
tensor of `shape`. It is read only while the tensor still has that shape and was only cast, copied or sliced whole
since (every other op, a write into it, or a key that reorders the axis ends it): a transpose of an [N, 3] table is
a [3, N] one and no longer has these columns.
"""
from __future__ import annotations

from typing import Optional

from ..dims import Shape, normalize_dim, value
from .tensor_ops import Repeated, SliceVal, as_int
from .values import DimVal, Literal, SeqVal, TensorVal

# ops after which each part holds the values it held: copies, casts, moves
KEEPS = frozenset({"contiguous", "clone", "detach", "cpu", "cuda", "to", "long", "int", "float", "double", "half",
                   "type", "requires_grad_", "detach_", "pin_memory"})


def made(items, dim: Optional[int], stack: bool, result):
    """`torch.stack(items, dim)` / `torch.cat(items, dim)` of pieces one position wide along dim, some with a
    range: the joined tensor keeps each piece's range at its place. (Pieces of other widths are left out: their
    layout changes from one run of a loop to the next, a batch and its padding.)"""
    if not isinstance(result, TensorVal) or result.shape is None or result.shape.variadic or dim is None \
            or not items or not all(isinstance(t, TensorVal) for t in items) \
            or not any(t.domain is not None and t.domain.size is not None for t in items):
        return result
    dims = result.shape.dims
    axis = normalize_dim(dim, len(dims))
    if axis is None or not stack and not all(_one_wide(t.shape, axis, len(dims)) for t in items):
        return result
    if value(dims[axis]) != len(items) or any(value(d) == len(items) for k, d in enumerate(dims) if k != axis):
        return result  # an axis whose size another dim shares: a transpose would keep the shape
    return result.with_(parts=(axis, result.shape, tuple(t.domain for t in items)))


def _one_wide(shape, axis: int, rank: int) -> bool:
    return shape is not None and not shape.variadic and len(shape.dims) == rank and value(shape.dims[axis]) == 1


def _live(t) -> Optional[tuple]:
    """The parts of `t` while it still has the shape they were made for."""
    if not isinstance(t, TensorVal) or t.parts is None:
        return None
    return t.parts if t.shape == t.parts[1] else None


def _part(parts: tuple, at: Optional[int]):
    """The domain of the piece at position `at` along the axis, or None."""
    pieces = parts[2]
    return pieces[at] if at is not None and 0 <= at < len(pieces) else None


def _read(result, domain=None):
    """The read of one piece: its domain in place of what the op left (None: no one piece was read); the parts
    fact gone."""
    if not isinstance(result, TensorVal):
        return result
    return result.with_(domain=domain, parts=None) if domain is not None else forgotten(result)


def picked(owner, key, result):
    """`x[:, k]`, `x[:, k:k + 1]`, `x[..., k]`, `x[k]`: the piece at k, read with its range; `x[:]` keeps the
    parts; any other key ends them."""
    parts = _live(owner)
    if parts is None:
        return forgotten(result)
    axis, shape, _ = parts
    items = list(key.items) if isinstance(key, SeqVal) and not key.names else [key]
    if items and isinstance(items[0], Literal) and items[0].value is Ellipsis:
        items = [SliceVal(None, None, None)] * (len(shape.dims) - len(items) + 1) + items[1:]
    if len(items) > len(shape.dims) or not all(_whole(item) for k, item in enumerate(items) if k != axis):
        return _read(result)
    chosen = items[axis] if axis < len(items) else SliceVal(None, None, None)
    if _whole(chosen):  # x[:], x[:, :]: the same tensor
        return result if isinstance(result, TensorVal) and result.parts == parts else _read(result)
    return _read(result, _part(parts, _position(chosen, len(parts[2]))))


def _whole(item) -> bool:
    return isinstance(item, SliceVal) and item.lower is None and item.upper is None and item.step is None


def _position(item, size: int) -> Optional[int]:
    """The one position an int, or a slice one wide (`k:k + 1`), picks along an axis of `size`."""
    if isinstance(item, DimVal) and isinstance(item.dim, int):
        return item.dim + size if item.dim < 0 else item.dim
    if isinstance(item, SliceVal) and item.step is None:
        low = 0 if item.lower is None else as_int(item.lower)
        high = size if item.upper is None else as_int(item.upper)
        if low is None or high is None:
            return None
        low, high = (low + size if low < 0 else low), min(high + size if high < 0 else high, size)
        return low if high - low == 1 else None
    return None


def after_method(name: str, owner, args, kwargs, result):
    """A method (or torch function) of a tensor with parts: copies and casts keep them; `select` and a one-wide
    `narrow` read one; `t()` of a 2-d table swaps the axis; `unbind` along the axis gives each piece its range;
    any other op ends them."""
    parts = _live(owner)
    if parts is None:
        return forgotten(result)
    axis, shape, pieces = parts
    if name in KEEPS and isinstance(result, TensorVal) and result.shape == shape:
        return result.with_(parts=parts)
    dim = as_int(args[0]) if args else as_int(kwargs.get("dim", DimVal(0)))
    along = dim is not None and normalize_dim(dim, len(shape.dims)) == axis
    if name == "select" and len(args) == 2 and along:
        return _read(result, _part(parts, _position(args[1], len(pieces))))
    if name == "narrow" and len(args) == 3 and along and as_int(args[2]) == 1:
        return _read(result, _part(parts, as_int(args[1])))
    if name == "t" and len(shape.dims) == 2:
        return transposed(owner, result)
    if name == "unbind" and along and isinstance(result, Repeated) and isinstance(result.element, TensorVal):
        return SeqVal(tuple(result.element.with_(domain=domain, parts=None) for domain in pieces))
    return _read(result)


def transposed(owner, result):
    """`x.T` / `x.t()` of a 2-d table: the parts lie along the other axis."""
    parts = _live(owner)
    if parts is None or len(parts[1].dims) != 2 or not isinstance(result, TensorVal) or result.shape is None:
        return forgotten(result)
    return result.with_(parts=(1 - parts[0], result.shape, parts[2]))


def rows(result, count: int) -> Optional[tuple]:
    """`src, dst = edge_index` of parts along dim 0: each name's row with its range."""
    parts = _live(result)
    if parts is None or parts[0] != 0 or len(parts[2]) != count:
        return None
    row = TensorVal(Shape(parts[1].dims[1:]), result.dtype)
    return tuple(row.with_(domain=domain) for domain in parts[2])


def forgotten(t):
    """The parts fact gone (a write into the tensor, an op that is no copy): what each piece held may be gone."""
    return t.with_(parts=None) if isinstance(t, TensorVal) and t.parts is not None else t
