"""Lists of tensors: built by `.append` in a loop and stacked, or made by `chunk` / `split` and unpacked.

    log_probs = []
    for t in range(T):
        log_probs.append(step_logp.gather(1, act[:, t:t + 1]))   # each [B, 1]
    log_probs = torch.stack(log_probs, dim=1)                    # [B, T, 1]

A list is tracked as one element value (tensor_ops.Repeated) while every append agrees on it.
"""
from __future__ import annotations

from typing import Optional

from ..dims import Shape, normalize_dim, value
from . import scalars, symbolic
from .config import DictVal
from . import tensor_ops as ops
from .python_types import ListVal
from .sequences import LONGEST
from .values import DimVal, SeqVal, TensorVal, join_all


def appended(owner, item):
    """The list after `owner.append(item)`: [] or a list of like tensors stays one of like tensors;
    a list of like tuples of tensors (a cache's (key, value) per layer) stays one while they agree; a list of
    known ints given one more is that list, one item longer (a prompt built token by token)."""
    if isinstance(item, DimVal) and value(item.dim) is not None and type(owner) in (SeqVal, ListVal) \
            and not owner.names and len(owner.items) < LONGEST and all(isinstance(i, DimVal) for i in owner.items):
        return ListVal(owner.items + (item,))
    row = _number_row(item)
    if row is not None and type(owner) in (SeqVal, ListVal) and not owner.items and not owner.names:
        return ops.Repeated(row)  # rows.append(ids + [pad] * (n - len(ids))): rows of n numbers
    if row is not None and isinstance(owner, ops.Repeated) and owner.length is None and _number_row(owner.element):
        if owner.element == row:
            return owner
        # rows of other known ints (`[pad] * n + list(range(k))` per prompt): rows of ints among all of them
        number = scalars.chosen_of([owner.element.element, row.element])
        length = owner.element.length if owner.element.length == row.length else None
        return ops.Repeated(ops.Repeated(number, length)) if number is not None else None
    if scalars.is_number(item) and not scalars.is_bool(item) and _empty_or_numbers(owner):
        return ops.Repeated(_one_number(owner, item))  # returns.append(running): numbers, as many as the loop ran
    if isinstance(item, DictVal) and any(v is not None for _, v in item.items):
        # records appended one by one (`batch.append({"state": s, "action": a})`): like records while they agree
        if isinstance(owner, SeqVal) and not owner.items and not owner.names:
            return ops.Repeated(item)
        return owner if isinstance(owner, ops.Repeated) and owner.element == item else None
    if _tensor_tuple(item):
        if isinstance(owner, SeqVal) and not owner.items and not owner.names:
            return ops.Repeated(item)
        return owner if isinstance(owner, ops.Repeated) and owner.element == item else None
    if not isinstance(item, TensorVal):
        return None
    if isinstance(owner, SeqVal) and not owner.items and not owner.names:
        return ops.Repeated(item)
    if isinstance(owner, ops.Repeated) and isinstance(owner.element, TensorVal):
        return owner if owner.element == item else _like(owner.element, item)
    return None


def _number_row(item) -> Optional[ops.Repeated]:
    """A list of numbers of a known length, as that many like numbers (the items' values joined)."""
    if isinstance(item, ops.Repeated) and isinstance(value(item.length), int) and scalars.is_number(item.element) \
            and not scalars.is_bool(item.element):
        return item
    if type(item) in (SeqVal, ListVal) and not item.names:
        numbers = scalars.joined_numbers(item.items)
        return ops.Repeated(numbers, len(item.items)) if numbers is not None else None
    return None


def _empty_or_numbers(owner) -> bool:
    """[] or a list of numbers of unknown count (a list of known ints grows item by item instead)."""
    if type(owner) in (SeqVal, ListVal):
        return not owner.items and not owner.names
    return isinstance(owner, ops.Repeated) and owner.length is None and scalars.is_number(owner.element) \
        and not scalars.is_bool(owner.element)


def _one_number(owner, item):
    """The element of a list of numbers given one more: a float makes them floats (torch.tensor makes float32)."""
    kinds = [item] + ([owner.element] if isinstance(owner, ops.Repeated) else [])
    return scalars.NumberVal() if any(scalars.is_float_number(k) for k in kinds) else DimVal(None)


def _tensor_tuple(item) -> bool:
    """A tuple of tensors, or a record holding tensors beside Python data (a transition (s, a, r, s2, done))."""
    return type(item) is SeqVal and bool(item.items) and not item.names and any(isinstance(i, TensorVal) for i in item.items)


def joined(a, b):
    """Two paths' lists: an empty list joins a list of tensors as that list (zero appends ran)."""
    if isinstance(a, ops.Repeated) and isinstance(b, SeqVal) and not b.items and not b.names:
        return a
    if isinstance(b, ops.Repeated) and isinstance(a, SeqVal) and not a.items and not a.names:
        return b
    if isinstance(a, ops.Repeated) and isinstance(b, ops.Repeated) and isinstance(a.element, TensorVal) \
            and isinstance(b.element, TensorVal):
        return a if a.element == b.element else _like(a.element, b.element)
    return None


def _like(a: TensorVal, b: TensorVal):
    if a.shape != b.shape:
        return None  # stacking them would raise, or the sizes differ: not one element value
    return ops.Repeated(TensorVal(a.shape, a.dtype if a.dtype == b.dtype else None))


def chunks(t: TensorVal, args: list, kwargs: dict, method: str):
    """x.chunk(n, dim) / x.split(size_or_sizes, dim) / torch.tensor_split: the pieces along dim."""
    count_or_size = args[0] if args else kwargs.get("chunks", kwargs.get("split_size_or_sections", kwargs.get("split_size")))
    dim = ops.as_int(args[1] if len(args) > 1 else kwargs.get("dim", DimVal(0)))
    s = t.shape
    if s is None or s.variadic or not s.dims or dim is None or normalize_dim(dim, len(s.dims)) is None:
        return ops.Repeated(TensorVal(None, t.dtype))  # a 0-d tensor: torch refuses to cut it (no rule says so)
    axis = normalize_dim(dim, len(s.dims))

    def piece(size) -> TensorVal:
        dims = list(s.dims)
        dims[axis] = size
        return TensorVal(Shape(tuple(dims)), t.dtype, t.domain)

    if method == "split" and isinstance(count_or_size, SeqVal):  # explicit sizes: one piece each
        return SeqVal(tuple(piece(ops.as_int(v) if isinstance(v, DimVal) else None) for v in count_or_size.items))
    n, total = ops.as_int(count_or_size), value(s.dims[axis])
    if method == "chunk" and n and total is not None and total % n == 0:
        return SeqVal(tuple(piece(total // n) for _ in range(n)))
    if method == "split" and n and total is not None and total % n == 0:
        return SeqVal(tuple(piece(n) for _ in range(total // n)))
    named = _named_pieces(s.dims[axis], n, count_or_size, method)
    if named is not None:  # qkv.chunk(3, dim=-1) of a [.., 3*H] tensor: three [.., H]
        return SeqVal(tuple(piece(named[1]) for _ in range(named[0])))
    return ops.Repeated(piece(None))


def _named_pieces(total, n, size, method):
    """(count, size) of the pieces of a named dim that is a known multiple of the split: `3*H` in 3
    chunks is 3 of H; `3*H` split by H is 3 of H. None when the division is not certain."""
    if value(total) is not None or total is None:
        return None
    if method == "chunk" and n and n > 0:
        part = symbolic.quotient([total], [n])
        return (n, part) if part is not None else None
    if method == "split" and isinstance(size, DimVal) and size.dim is not None and value(size.dim) is None:
        count = symbolic.quotient([total], [size.dim])
        return (count, size.dim) if isinstance(count, int) and count > 0 else None
    return None


CHUNKING = {"chunk", "split"}


def transposed(records):
    """`zip(*batch)` of a list of like records (s, a, r): one list per field, as long as the batch."""
    if not isinstance(records, ops.Repeated) or type(records.element) is not SeqVal or records.element.names \
            or not records.element.items:
        return None
    return SeqVal(tuple(ops.Repeated(item, records.length) if item is not None else None
                        for item in records.element.items))


def item_of(items):
    """What every item of a list agrees on: a list of like items' element, or the join of a tracked list's."""
    if isinstance(items, ops.Repeated):
        return items.element
    if isinstance(items, SeqVal) and not items.names and items.items:
        return join_all(items.items)
    return None
