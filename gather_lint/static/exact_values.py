"""Every entry of a small integer or bool tensor whose values the code spells out.

`torch.tensor([[151644, 151655, 151655, 872]])` is known entry by entry, and so is what a few ops make of
it: views and casts (`.unsqueeze(-1)`, `.view(-1)`, `.long()`), comparisons with a number (`ids == image_id`,
a mask), `~mask`, `&`, `|`, `cat`/`stack` of such tensors, and sums (`mask.sum()`, `int(mask.sum())`). A mask
known this way selects a known number of rows: `x[mask] = feats` needs feats to have that many, and
`x.masked_scatter_(mask, src)` needs that many values in src. The largest entry is among the values, a size
of max + 1 for what the ids index (GL011).

The entries hold for the shape they were laid out in (`Entries.dims`); every other op, and any write into
the tensor (present_values.forgotten), leaves them out.
"""
from __future__ import annotations

import itertools
import operator
from dataclasses import dataclass, replace
from typing import Optional, Tuple

from ..contract import Domain
from ..rules import gl003_index_too_large as too_large
from ..dims import Shape, value
from .tree_walk import literal_numbers
from .arange_positions import arguments as arange_arguments, start_and_step
from .signs import never_negative
from .tensor_ops import Repeated, SliceVal, as_int
from .values import DimVal, Literal, SeqVal, TensorVal
from .written_rows import written_origin

_MOST = 4096  # a handful of ids or a prompt, not a table of data
_INTS = ("int64", "int32")
_LAYOUT = {"view", "reshape", "flatten", "unsqueeze", "squeeze", "contiguous", "clone", "detach", "cpu", "cuda",
           "ravel", "view_as", "reshape_as"}
_CASTS = {"long": "int64", "int": "int32", "bool": "bool"}


@dataclass(frozen=True)
class Entries:
    dims: tuple  # the sizes the values are laid out in, row-major
    values: tuple  # ints (bools as 0 and 1)


def of(t) -> Optional[Entries]:
    """The entries of `t` when they hold for its shape as it is now."""
    entries = t.entries if isinstance(t, TensorVal) else None
    return entries if entries is not None and entries.dims == _dims(t) else None


def _dims(t) -> Optional[tuple]:
    shape = t.shape if isinstance(t, TensorVal) else None
    if shape is None or shape.variadic:
        return None
    dims = tuple(value(d) for d in shape.dims)
    return None if None in dims else dims


def _count(dims) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


def _laid(result, values) -> object:
    """`result` with `values` laid out in its shape, when its shape is known and holds that many."""
    dims = _dims(result)
    if dims is None or _count(dims) != len(values):
        return result
    return result.with_(entries=Entries(dims, tuple(values)))


def written(func: str, made, data_node, data, line: int):
    """`torch.tensor(<ints>)`, its ints written out or known through names and Python lists (`[bos] + ids`):
    its entries, and its largest value as a size of max + 1 (negative entries are padding, not positions:
    interp_helpers.padding_of_literal, and no size is given then)."""
    if func not in ("tensor", "as_tensor", "LongTensor") or not isinstance(made, TensorVal) or made.dtype not in _INTS:
        return made
    numbers = literal_numbers(data_node, (int,))
    numbers = numbers if numbers is not None else _known_ints(data)
    if not numbers or len(numbers) > _MOST:
        return made
    made = _laid(made, numbers)
    old = made.domain
    if min(numbers) < 0 or max(numbers) < 1 or old is not None and (old.size is not None or old.sentinel is not None):
        return made
    bound = _bound(numbers, line)
    if old is not None:  # a literal naming a value twice (repeated_indices): that stays said
        return made.with_(domain=replace(old, size=bound.size, origin=f"{bound.origin}; {old.origin}", bound_only=True))
    return made.with_(domain=bound)


def _bound(numbers, line) -> Domain:
    """Values written out at `line`: their largest one past the last, a bound that names no dim."""
    top = max(numbers)
    return Domain(top + 1, origin=written_origin(line, top), repeats=len(set(numbers)) < len(numbers), bound_only=True)


def constant(made, fill):
    """`torch.full(size, c)`, `torch.zeros/ones(size)` of an integer or bool dtype and a known size: c everywhere."""
    c = value(fill.dim) if isinstance(fill, DimVal) else (int(fill.value) if isinstance(fill, Literal)
                                                            and isinstance(fill.value, bool) else None)
    dims = _dims(made)
    if type(c) is not int or dims is None or made.dtype not in _INTS + ("bool",) or _count(dims) > _MOST:
        return made
    return _laid(made, [int(c != 0) if made.dtype == "bool" else c] * _count(dims))


def _known_ints(data) -> Optional[list]:
    """Every int of nested Python sequences whose items the analysis knows; None when one is not an int."""
    if isinstance(data, DimVal):
        known = value(data.dim)  # a module constant (`IMAGE_PAD_ID`) is a name with its value
        return [known] if type(known) is int else None
    if not isinstance(data, SeqVal) or not data.items:
        return None
    found = []
    for item in data.items:
        inner = _known_ints(item)
        if inner is None:
            return None
        found.extend(inner)
    return found


def after_method(method: str, owner, args, kwargs, result):
    """The entries through a view, a cast to an integer type or bool, a comparison and a sum."""
    entries = of(owner)
    if method == "item" and entries is not None and len(entries.values) == 1:
        return DimVal(entries.values[0])
    if method in ("new_zeros", "new_ones") and isinstance(result, TensorVal):
        return constant(result, DimVal(int(method == "new_ones")))  # whatever the owner's entries
    if method == "new_full" and len(args) == 2 and isinstance(result, TensorVal):
        return constant(result, args[1])
    if method == "unbind" and entries is not None and isinstance(result, Repeated):
        return _unbound(owner, entries, args, kwargs, result)
    if method == "select" and entries is not None and len(args) == 2 and not kwargs:
        return _selected_along(owner, entries, args[0], args[1], result)
    if entries is None or not isinstance(result, TensorVal):
        return result
    if (method in _LAYOUT or method == "to") and result.dtype == owner.dtype:  # not `.view(torch.uint8)`'s bytes
        return _values_kept(owner, _laid(result, entries.values))
    if method in _CASTS or method == "to":
        target = _CASTS.get(method, result.dtype)
        if target == "bool":
            return _laid(result, [int(v != 0) for v in entries.values])
        return _laid(result, entries.values) if target in _INTS and result.dtype == target else result
    if method in ("expand", "expand_as", "broadcast_to"):
        return _values_kept(owner, _broadcast(entries, result))
    if method == "flip":
        return flipped(entries, args[0] if len(args) == 1 and not kwargs else kwargs.get("dims"), result)
    if method in _METHOD_COMPARISONS and len(args) == 1 and not kwargs:
        return compared(owner, _METHOD_COMPARISONS[method], args[0], result)
    if method in _METHOD_ARITHMETIC and len(args) == 1 and not kwargs:
        return with_bound(_computed(owner, _METHOD_ARITHMETIC[method], args[0], result), sized_only_ok=True)
    if method in ("cumsum", "bincount", "clamp", "clamp_min", "clamp_max", "clip", "max", "min", "amax", "amin"):
        return with_bound(_counted(method, entries, args, kwargs, result))
    if method == "logical_not" and owner.dtype == "bool":
        return _laid(result, [1 - v for v in entries.values])
    if method == "sum" and not kwargs:
        return _summed(entries, args, result)
    if method == "nonzero" and not args and not kwargs:
        return _nonzero(entries, result)
    if method in ("repeat_interleave", "repeat") and len(entries.dims) == 1 and len(args) == 1 and not kwargs:
        k = value(args[0].dim) if isinstance(args[0], DimVal) else None
        if type(k) is int and 0 <= k and len(entries.values) * k <= _MOST:  # each value k times, or the row k times
            copies = [v for v in entries.values for _ in range(k)] if method == "repeat_interleave" else list(entries.values) * k
            return _laid(result, copies)
    if method == "unique" and not args and not kwargs and isinstance(result, TensorVal):
        distinct = sorted(set(entries.values))  # sorted=True is the default: the distinct values, ascending
        return _laid(result.with_(shape=Shape((len(distinct),))), distinct)
    return result


_METHOD_COMPARISONS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_METHOD_ARITHMETIC = {"add": "+", "sub": "-", "mul": "*", "floor_divide": "//", "remainder": "%"}


def _counted(method: str, entries: Entries, args, kwargs, result):
    """cumsum, bincount, clamp and a whole-tensor max/min of known integer entries."""
    ints = [as_int(a) for a in args]
    if result.dtype not in _INTS or None in ints:
        return result
    if method in ("max", "min", "amax", "amin"):
        if args or kwargs or not entries.values:
            return result  # along a dim: not modelled
        return _laid(result, [(max if method in ("max", "amax") else min)(entries.values)])
    if method == "cumsum":
        axis = ints[0] if ints else as_int(kwargs.get("dim"))
        if len(entries.dims) != 1 or axis not in (0, -1) or set(kwargs) - {"dim"}:
            return result
        return _laid(result, list(itertools.accumulate(entries.values)))
    if method == "bincount":
        least = as_int(kwargs.get("minlength", args[1] if len(args) > 1 else DimVal(0)))
        if len(entries.dims) != 1 or (args and args[0] is not None) or kwargs.get("weights") is not None \
                or least is None or (entries.values and min(entries.values) < 0):
            return result
        counts = [0] * max(least, max(entries.values, default=-1) + 1)
        for v in entries.values:
            counts[v] += 1
        if len(counts) > _MOST:
            return result
        return _laid(result.with_(shape=Shape((len(counts),))), counts)
    low = as_int(kwargs["min"]) if "min" in kwargs else (ints[0] if ints and method != "clamp_max" else None)
    high = as_int(kwargs["max"]) if "max" in kwargs else (
        ints[0] if method == "clamp_max" and ints else (ints[1] if len(ints) > 1 else None))
    if set(kwargs) - {"min", "max"} or ("min" in kwargs and low is None) or ("max" in kwargs and high is None):
        return result
    def clamped(v: int) -> int:
        v = max(v, low) if low is not None else v
        return min(v, high) if high is not None else v
    return _laid(result, [clamped(v) for v in entries.values])


def ranged(func: str, made, args, kwargs):
    """`torch.arange(end)`, `arange(start, end[, step])` of known ints, by position or keyword: its entries (a
    handful of positions or ids)."""
    bound = arange_arguments(args, kwargs) if func == "arange" else None
    if not bound or "end" not in bound or not isinstance(made, TensorVal) or made.dtype not in _INTS:
        return made
    start, step = start_and_step(bound)
    end = value(bound["end"].dim) if isinstance(bound["end"], DimVal) else None
    ints = [start, end, step]
    if any(type(i) is not int for i in ints) or ints[2] == 0:
        return made
    numbers = range(*ints)
    if not numbers or len(numbers) > _MOST:  # counted before listing: `arange(int(1e8))` is no handful
        return made
    return _laid(made.with_(shape=Shape((len(numbers),))), list(numbers))


def largest(t) -> Optional[int]:
    """The largest entry of a tensor known entry by entry."""
    entries = of(t)
    return max(entries.values) if entries is not None and entries.values else None


def largest_described(t) -> Optional[Tuple[int, str]]:
    """(the largest entry, what holds it: `values written at line 7, 12 among them`), of a tensor known entry by entry."""
    top = largest(t)
    if top is None:
        return None
    domain = t.domain
    if domain is not None and domain.bound_only and domain.size == top + 1 and domain.origin \
            and not domain.origin.startswith(COPIED):  # the copies' origin says how often, not which values
        return top, domain.origin
    return top, f"values known one by one, {top} among them"


def _nonzero(entries: Entries, result):
    """`mask.nonzero()`: the coordinates of the nonzero entries, one row each, in order."""
    rank = len(entries.dims)
    coordinates = []
    for flat, v in enumerate(entries.values):
        if v:
            coordinates.extend(_unravel(flat, entries.dims))
    shape = result.shape if isinstance(result, TensorVal) else None
    if shape is None or shape.variadic or len(shape.dims) != 2 or rank == 0:
        return result
    return _laid(result.with_(shape=Shape((len(coordinates) // rank, rank))), coordinates)


def compared(left, op: str, right, result):
    """`ids == c`, `ids < n`, `a != b` of known entries and numbers (either side the tensor): a mask known entry by
    entry."""
    if op not in _COMPARISONS or not isinstance(result, TensorVal):
        return result
    a, b = _operand(left), _operand(right)
    pairs = _elementwise(a, b) if a is not None and b is not None and (a[0] or b[0]) else None  # a tensor's entries
    return result if pairs is None else _laid(result, [int(_COMPARISONS[op](x, y)) for x, y in pairs])


def inverted(mask, result):
    """`~mask` of a known bool mask."""
    entries = of(mask)
    if entries is None or mask.dtype != "bool" or not isinstance(result, TensorVal):
        return result
    return _laid(result, [1 - v for v in entries.values])


def combined(left, op: str, right, result):
    """`a & b`, `a | b` of two known masks of one shape; `ids + 1`, `rows * width + cols`, `ids % n` of known
    integer entries and numbers (what comes out of integer arithmetic is known entry by entry too)."""
    if op in _ARITHMETIC:
        return _computed(left, op, right, result)
    a, b = of(left), of(right)
    if a is None or b is None or a.dims != b.dims or op not in ("&", "|") or not isinstance(result, TensorVal):
        return result
    pairs = zip(a.values, b.values)
    return _laid(result, [x & y for x, y in pairs] if op == "&" else [x | y for x, y in pairs])


_ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
_COMPARISONS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
                ">=": operator.ge}


def _operand(v):
    """(dims, values) of a known tensor, or ((), (n,)) of a known int; None otherwise."""
    if isinstance(v, TensorVal):
        entries = of(v)
        return (entries.dims, entries.values) if entries is not None else None
    n = value(v.dim) if isinstance(v, DimVal) else (v.value if isinstance(v, Literal) else None)
    return ((), (n,)) if type(n) is int else None


def _computed(left, op: str, right, result):
    """The entries of integer arithmetic, elementwise, a number standing for every entry."""
    a, b = _operand(left), _operand(right)
    pairs = _elementwise(a, b)
    if pairs is None or not isinstance(result, TensorVal) or result.dtype not in _INTS:
        return result
    if op in ("//", "%") and 0 in b[1]:
        return result  # torch raises on an integer division by zero
    return _laid(result, [_ARITHMETIC[op](x, y) for x, y in pairs])  # bounded once every range fact is in


def _elementwise(a, b) -> Optional[list]:
    """The entry pairs of two operands of one shape, or of a tensor and a number standing for every entry (other
    broadcasts are not modelled); None when either is not known."""
    if a is None or b is None or (a[0] and b[0] and a[0] != b[0]):
        return None
    count = max(len(a[1]), len(b[1]))
    return list(zip(a[1] * (count // len(a[1])), b[1] * (count // len(b[1]))))


def plus_at_least_0(left, op: str, right, result):
    """`starts + offsets` with the starts known one by one and the offsets >= 0 (their values unknown): the sum
    reaches at least the largest start, where that start's offset is added (GL011). Nothing is said of repeats:
    offsets within each start's stride (`slots * k + torch.arange(k)`) make every sum distinct."""
    if op != "+" or not isinstance(result, TensorVal) or of(result) is not None:
        return result
    for known, other in ((left, right), (right, left)):
        top = largest(known)
        if top is not None and isinstance(other, TensorVal) and of(other) is None and never_negative(other) \
                and never_negative(known):
            return result.with_(domain=Domain(top + 1, origin=f"values that reach {top} or more (entries known from "
                                              f"values the code wrote, {top} the largest, plus values >= 0)"))
    return result


WORKED_OUT = "values worked out entry by entry from what the code wrote, "
COPIED = "values copied by"  # repeated_indices' origin of repeat_interleave/repeat/tile copies


def with_bound(t, sized_only_ok: bool = False):
    """A tensor known entry by entry, its values non-negative, gets their largest one past the last as the bound
    its values keep (GL011), where no fact about its values was known but a bound (a 0/1 mask's, a literal's;
    `sized_only_ok`: any range, for the result of arithmetic, whose entries say more than a range does)."""
    entries = of(t)
    if entries is None or not entries.values or min(entries.values) < 0 or t.dtype not in _INTS:
        return t
    old = t.domain
    if old is not None and (old.size is not None and not (old.binary or old.bound_only or sized_only_ok)
                            or old.sentinel is not None or old.category or old.made_float or old.rounded):
        return t  # what the values were made for says more
    top = max(entries.values)
    if old is not None and value(old.size) == top + 1:
        return t  # the same bound, said by what made the values (`% n` remainders)
    bound = Domain(top + 1, origin=f"{WORKED_OUT}{top} among them",
                   repeats=len(set(entries.values)) < len(entries.values), bound_only=True)
    return t.with_(domain=bound if old is None else replace(old, size=bound.size, origin=bound.origin,
                                                            repeats=bound.repeats, bound_only=True, binary=False))


def _values_kept(owner, result):
    """A result holding the owner's values only (a view, an expand over a batch of unknown size): their listing
    where its shape is known, else their bound (positions 0 to 47 expanded over the batch are still 0 to 47)."""
    if of(result) is not None or result.domain is not None:
        return result
    bounded = with_bound(owner)
    if bounded.domain is None:
        return result
    told = largest_described(owner)  # the message the listing would give: `values known one by one, 47 among them`
    return result.with_(domain=replace(bounded.domain, origin=told[1]) if told is not None else bounded.domain)


def _broadcast(entries: Entries, result):
    """`mask.expand_as(x)`: each entry repeated along the dims of size 1 it is expanded over."""
    dims = _dims(result)
    if dims is None or len(dims) < len(entries.dims) or _count(dims) > _MOST:
        return result
    own = (1,) * (len(dims) - len(entries.dims)) + entries.dims
    if any(d not in (1, n) for d, n in zip(own, dims)):
        return result
    strides, step = [], 1
    for d in reversed(own):
        strides.append(step if d != 1 else 0)
        step *= d
    strides.reverse()
    values = [entries.values[sum(i * s for i, s in zip(_unravel(flat, dims), strides))] for flat in range(_count(dims))]
    return _laid(result, values)


def flipped(entries: Entries, dims, result):
    """`x.flip(0)` (and `reversed(x)`, which iterates it): the entries in the other order along each dim named."""
    items = dims.items if isinstance(dims, SeqVal) else (dims,)
    axes = [as_int(d) for d in items]
    rank = len(entries.dims)
    if not axes or any(a is None or not -rank <= a < rank for a in axes) or _dims(result) != entries.dims:
        return result
    axes = {a % rank for a in axes}
    at = [tuple(entries.dims[k] - 1 - i if k in axes else i for k, i in enumerate(_unravel(flat, entries.dims)))
          for flat in range(len(entries.values))]
    strides = [_count(entries.dims[k + 1:]) for k in range(rank)]
    return _laid(result, [entries.values[sum(i * s for i, s in zip(c, strides))] for c in at])


def _selection(entries: Entries, axis: int, k: int) -> list:
    """The entries at position `k` of dim `axis`, row-major in the dims left."""
    outer, size, inner = _count(entries.dims[:axis]), entries.dims[axis], _count(entries.dims[axis + 1:])
    return [entries.values[(o * size + k) * inner + i] for o in range(outer) for i in range(inner)]


def _selected_along(owner, entries: Entries, dim, k, result):
    """`spans.select(-1, 1)`: the entries of one position of a dim, and the bound of those values."""
    axis, at = as_int(dim), as_int(k)
    if not isinstance(result, TensorVal) or axis is None or at is None or not -len(entries.dims) <= axis < len(entries.dims):
        return result
    axis %= len(entries.dims)
    if not -entries.dims[axis] <= at < entries.dims[axis]:
        return result
    return _piece_bound(owner, _laid(result, _selection(entries, axis, at % entries.dims[axis])))


def _unbound(owner, entries: Entries, args, kwargs, pieces: Repeated):
    """`starts, ends = spans.unbind(-1)` of known entries: each piece its own entries (the pieces differ)."""
    dim = as_int(args[0] if args else kwargs.get("dim", DimVal(0)))
    element = pieces.element
    if dim is None or not entries.dims or not -len(entries.dims) <= dim < len(entries.dims) \
            or not isinstance(element, TensorVal):
        return pieces
    axis = dim % len(entries.dims)
    return SeqVal(tuple(_piece_bound(owner, _laid(element, _selection(entries, axis, k)))
                        for k in range(entries.dims[axis])))


def _piece_bound(owner, piece):
    """A piece of a tensor known entry by entry: the bound of its own values where the whole had a bound only."""
    domain = owner.domain
    if of(piece) is None or (domain is not None and not domain.bound_only):
        return piece
    return with_bound(piece.with_(domain=None))


def _unravel(flat: int, dims: tuple) -> tuple:
    """The coordinates of the `flat`-th entry of a row-major tensor of `dims`."""
    at = []
    for d in reversed(dims):
        flat, i = divmod(flat, d)
        at.append(i)
    return tuple(reversed(at))


def _summed(entries: Entries, args, result):
    """`.sum()` (a 0-d tensor holding the total) or `.sum(d)` of known entries."""
    if not args:
        return _laid(result, [sum(entries.values)])
    axis = value(args[0].dim) if isinstance(args[0], DimVal) else None
    if axis is None or len(args) > 1 or not -len(entries.dims) <= axis < len(entries.dims):
        return result
    axis %= len(entries.dims)
    outer, size, inner = _count(entries.dims[:axis]), entries.dims[axis], _count(entries.dims[axis + 1:])
    sums = [sum(entries.values[(o * size + k) * inner + i] for k in range(size))
            for o in range(outer) for i in range(inner)]
    return _laid(result, sums)


def sliced(owner, key, result):
    """`ids[:n]`, `ids[2:]` (a slice of the first dim with known bounds) of known entries: those entries, and
    their largest value as the ids' size when the whole was a written literal's."""
    entries = of(owner)
    if entries is None or not isinstance(result, TensorVal) or not entries.dims:
        return result
    if isinstance(key, DimVal):  # `edge_index[0]`: one row of known entries, the first dim gone
        k = as_int(key)
        if k is None or not -entries.dims[0] <= k < entries.dims[0]:
            return result
        inner = _count(entries.dims[1:])
        at = k % entries.dims[0]
        return _laid(result, entries.values[at * inner:(at + 1) * inner])
    if not isinstance(key, SliceVal):
        return result
    bounds = [None if v is None else as_int(v) for v in (key.lower, key.upper, key.step)]
    if any(b is None and v is not None for b, v in zip(bounds, (key.lower, key.upper, key.step))) or bounds[2] == 0:
        return result
    rows = range(entries.dims[0])[slice(*bounds)]
    inner = _count(entries.dims[1:])
    values = [v for r in rows for v in entries.values[r * inner:(r + 1) * inner]]
    shape = result.shape
    if shape is None or shape.variadic or len(shape.dims) != len(entries.dims) or not values:
        return result
    made = _laid(result.with_(shape=Shape((len(rows),) + tuple(shape.dims[1:]))), values)
    domain = owner.domain
    if domain is not None and domain.bound_only and domain.origin.startswith(WORKED_OUT):
        return with_bound(made.with_(domain=replace(domain, size=None)))  # the bound of the rows kept
    if domain is not None and domain.bound_only and min(values) >= 0:  # the bound of the rows kept
        line = domain.origin.split(",")[0].rsplit(" ", 1)[-1]  # the literal's line, as its origin names it
        bound = _bound(values, line)
        made = made.with_(domain=replace(domain, size=bound.size, origin=bound.origin, repeats=bound.repeats))
    return made


def looked_up(owner, key, result):
    """`table[ids]`, `block_table[req, block]` of a table and integer keys all known entry by entry (keys of one
    shape, one per leading dim): the entry each key names, with the table's remaining dims. A key outside its
    dim leaves nothing known (torch raises; the range checks say so)."""
    entries = of(owner)
    keys = list(key.items) if type(key) is SeqVal and not key.names else [key]
    if entries is None or not isinstance(result, TensorVal) or not keys or len(keys) > len(entries.dims) \
            or not all(isinstance(k, TensorVal) and k.dtype in _INTS for k in keys):
        return result
    found = [of(k) for k in keys]
    if any(f is None for f in found) or len({f.dims for f in found}) != 1:
        return result
    inner = _count(entries.dims[len(keys):])
    values = []
    for position in zip(*(f.values for f in found)):
        flat = 0
        for at, size in zip(position, entries.dims):
            if not -size <= at < size:
                return result
            flat = flat * size + at % size
        values.extend(entries.values[flat * inner:(flat + 1) * inner])
    return _laid(result, values)


def row(owner, result):
    """A row of a tensor whose rows are all the same known entries (one prompt stacked per sample): those."""
    entries = of(owner)
    if entries is None or len(entries.dims) < 1 or entries.dims[0] == 0:
        return result
    size = _count(entries.dims[1:])
    first = entries.values[:size]
    if any(entries.values[k * size:(k + 1) * size] != first for k in range(1, entries.dims[0])):
        return result
    return _laid(result, first)


def repeated_position(components) -> Optional[str]:
    """For index components all known entry by entry, of one shape: the first position written twice, as a
    description ("" when none is), or None when they are not all known."""
    found = [of(c) for c in components]
    if not found or any(e is None for e in found) or len({e.dims for e in found}) != 1:
        return None
    seen = set()
    for position in zip(*(e.values for e in found)):
        if position in seen:
            at = position[0] if len(position) == 1 else position
            return f"positions written out in the code, {at} twice"
        seen.add(position)
    return ""


def scatter_repeats_agree(index, src, dim) -> Optional[bool]:
    """`out.scatter(dim, index, src)` with index and src known entry by entry, of one shape: whether every
    position the index names twice is written the same value (nothing is lost), or None when not known."""
    at, values = of(index), of(src)
    d = as_int(dim) if isinstance(dim, DimVal) else None
    if at is None or values is None or at.dims != values.dims or d is None or not at.dims:
        return None
    d %= len(at.dims)
    written: dict = {}
    for flat, (position, value_) in enumerate(zip(at.values, values.values)):
        coords = list(_unravel(flat, at.dims))
        coords[d] = position
        if written.setdefault(tuple(coords), value_) != value_:
            return False
    return True


def number(t) -> Optional[int]:
    """`int(mask.sum())`, `mask.sum().item()`: the one entry of a known tensor of one value."""
    entries = of(t)
    return entries.values[0] if entries is not None and len(entries.values) == 1 else None


def joined(items, dim: Optional[int], stack: bool, result):
    """`torch.cat([prompt, response], dim=1)` (or stack) of tensors known entry by entry."""
    found = [of(t) for t in items]
    if not found or any(e is None for e in found) or dim is None or not isinstance(result, TensorVal):
        return result
    if stack:
        found = [Entries(e.dims[:dim % (len(e.dims) + 1)] + (1,) + e.dims[dim % (len(e.dims) + 1):], e.values)
                 for e in found]
        dim = dim % len(found[0].dims)
    rank = len(found[0].dims)
    if any(len(e.dims) != rank for e in found) or not -rank <= dim < rank:
        return result
    axis = dim % rank
    if any(e.dims[:axis] + e.dims[axis + 1:] != found[0].dims[:axis] + found[0].dims[axis + 1:] for e in found):
        return result
    outer = _count(found[0].dims[:axis])
    values = []
    for o in range(outer):
        for e in found:
            block = _count(e.dims[axis:])
            values.extend(e.values[o * block:(o + 1) * block])
    dims = found[0].dims[:axis] + (sum(e.dims[axis] for e in found),) + found[0].dims[axis + 1:]
    shape = result.shape
    if shape is None or shape.variadic or len(shape.dims) != rank \
            or any(value(d) not in (None, n) for d, n in zip(shape.dims, dims)):
        return result
    # a dim the pieces name differently (`B` beside a 1) is their common size
    known = Shape(tuple(d if value(d) == n else n for d, n in zip(shape.dims, dims)))
    return with_bound(_laid(result.with_(shape=known), values))


def selected_count(owner, mask) -> Optional[int]:
    """How many rows `owner[mask]` has: the true entries of a known bool mask over owner's leading dims (a
    size of owner's that is not known is the mask's: another raises before any count matters)."""
    entries = of(mask)
    if entries is None or mask.dtype != "bool" or not isinstance(owner, TensorVal):
        return None
    shape = owner.shape
    if shape is None or shape.variadic or len(shape.dims) < len(entries.dims):
        return None
    if any(value(d) not in (None, n) for d, n in zip(shape.dims, entries.dims)):
        return None
    return sum(entries.values)


def selected_values(mask, shape_of_target) -> Optional[int]:
    """How many values `target.masked_scatter_(mask, src)` reads from src: the true entries of the mask broadcast
    to the target's shape."""
    entries = of(mask)
    target = tuple(value(d) for d in shape_of_target.dims) if shape_of_target is not None \
        and not shape_of_target.variadic else None
    if entries is None or target is None or None in target or len(entries.dims) > len(target):
        return None
    dims = (1,) * (len(target) - len(entries.dims)) + entries.dims
    if any(d not in (1, t) for d, t in zip(dims, target)):
        return None
    repeat = _count(t for d, t in zip(dims, target) if d == 1)
    return sum(entries.values) * repeat


def check_masked_scatter(interp, node, owner, args) -> None:
    """GL003: `x.masked_scatter_(mask, src)` with a mask that selects more positions than src (of a known
    shape) has values (torch raises, naming neither count), or whole rows of another width than src's rows."""
    if len(args) != 2 or not isinstance(owner, TensorVal) or not isinstance(args[1], TensorVal):
        return
    width, source_width = _row_widths(owner, args[0], args[1])
    if width is not None and source_width is not None and width != source_width:
        text = interp.source.segment
        interp.flag(node, too_large.check_masked_rows(
            text(node.func.value), owner.shape, text(node.args[1]), args[1].shape, width, source_width), None)
        return
    needed = selected_values(args[0], owner.shape)
    source = _dims(args[1])
    have = _count(source) if source is not None else None
    if needed is None or have is None or needed <= have:
        return
    target = [value(d) if value(d) is not None else str(d) for d in owner.shape.dims]
    interp.flag(node, too_large.check_masked_source(needed, target, list(source), have), None)


def _row_widths(target: TensorVal, mask, source: TensorVal):
    """(target's last size, source's last size) when the mask selects whole rows of the target (its last size 1,
    or its entries alike along the last dim) and both sizes are known; else (None, None)."""
    shape, given = target.shape, source.shape
    if shape is None or shape.variadic or not shape.dims or given is None or given.variadic or len(given.dims) < 2 \
            or not isinstance(mask, TensorVal) or mask.shape is None or mask.shape.variadic or not mask.shape.dims:
        return None, None
    width, source_width = value(shape.dims[-1]), value(given.dims[-1])
    if width is None or source_width is None or width < 2:
        return None, None
    entries = of(mask)
    rows = value(mask.shape.dims[-1]) == 1 or (entries is not None and entries.dims[-1] == width and all(
        len(set(entries.values[k:k + width])) == 1 for k in range(0, len(entries.values), width)))
    return (width, source_width) if rows else (None, None)
