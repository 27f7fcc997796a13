"""Sizes held in Python sequences: `x.shape[:-1] + (6,)`, `torch.Size([4, 5])`, `list(x.shape)`,
`*batch, n, m = x.shape`.

Real code builds size arguments this way; a size sequence is tracked only while its length is
certain, so that `view(shape)` / `expand(*batch, n, m)` get either the right rank or none at all.
"""
from __future__ import annotations

import ast
from typing import List, Optional, Tuple

from ..dims import value
from .tensor_ops import Repeated, as_int
from .values import DimVal, SeqVal

LONGEST = 1024  # items of a list repeated out or appended one by one (`[image_id] * n_patches`): a prompt, not a dataset

# Calls that copy a sequence without changing its items.
SEQUENCE_COPIES = {"list", "tuple", "torch.Size", "Size"}
# Methods that change a list in place: its length or items are no longer known.
MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "reverse", "sort", "__setitem__", "__iadd__"}


def concat(left, right, symbol: str) -> Optional[SeqVal]:
    """`a + b` of two tracked sequences; `(n,) * 3` of a sequence and a known count."""
    if symbol == "+" and isinstance(left, SeqVal) and isinstance(right, SeqVal) and not left.names and not right.names:
        return SeqVal(left.items + right.items)
    if symbol == "*":
        seq, count = (left, right) if isinstance(left, SeqVal) else (right, left)
        times = value(count.dim) if isinstance(count, DimVal) else None
        if isinstance(seq, SeqVal) and not seq.names and isinstance(times, int) and 0 <= times \
                and (times <= 16 or len(seq.items) * times <= LONGEST):  # a prompt's run of placeholder ids too
            return SeqVal(seq.items * times)
    return None


def copy_of(args: list, kwargs: dict) -> Optional[SeqVal]:
    """list(s) / tuple(s) / torch.Size(s) of a tracked sequence."""
    if len(args) == 1 and not kwargs and isinstance(args[0], SeqVal) and not args[0].names:
        return SeqVal(args[0].items)
    if len(args) == 1 and not kwargs and isinstance(args[0], Repeated):
        return args[0]  # tuple(f(x) for x in xs): the same run of like elements
    return None


def reversed_of(args: list, kwargs: dict):
    """reversed(s) of a tracked sequence: its items in the other order; a run of like items stays that run."""
    if len(args) != 1 or kwargs:
        return None
    if isinstance(args[0], SeqVal) and not args[0].names:
        return SeqVal(tuple(reversed(args[0].items)))
    return args[0] if isinstance(args[0], Repeated) else None


def sliced_run(run: Repeated, key) -> Repeated:
    """`xs[::-1]`, `xs[1:]` of a run of like items: like items still, as many as the whole run only for a
    slice that keeps every item."""
    whole = key.lower is None and key.upper is None and (key.step is None or as_int(key.step) in (1, -1))
    return Repeated(run.element, run.length if whole else None)


def split_starred(items: Tuple[object, ...], before: int, after: int) -> Optional[Tuple[list, SeqVal, list]]:
    """`*batch, n, m = seq`: the items before the star, the starred rest, the items after it."""
    if len(items) < before + after:
        return None
    middle = items[before:len(items) - after]
    return list(items[:before]), SeqVal(tuple(middle)), list(items[len(items) - after:])


def set_item(seq: SeqVal, key, item) -> Optional[SeqVal]:
    """`shape[k] = v` with a known k: the same sequence with one item replaced."""
    k = key.dim if isinstance(key, DimVal) and isinstance(key.dim, int) else None
    if k is None or not -len(seq.items) <= k < len(seq.items):
        return None
    items: List[object] = list(seq.items)
    items[k] = item
    return SeqVal(tuple(items))


def spliced(nodes, values) -> Optional[SeqVal]:
    """`(*x.shape, n)` / `[b, *rest]`: a literal whose starred parts are tracked sequences."""
    items: List[object] = []
    for node, found in zip(nodes, values):
        if not isinstance(node, ast.Starred):
            items.append(found)
        elif isinstance(found, SeqVal) and not found.names:
            items.extend(found.items)
        else:
            return None
    return SeqVal(tuple(items))


def sized(value) -> bool:
    """A Python list of a known length: written out item by item, or a run of like items of an int length."""
    from .tensor_ops import Repeated, as_int

    return type(value) is SeqVal and not value.names or isinstance(value, Repeated) and isinstance(value.length, int)


def length(value, node=None):
    """`len(x)` (x written as `node`): a tracked sequence's item count (a list a method changed is no
    longer tracked), a tensor's first size, None when unknown. `if len(actions) == 1:` is then decided
    for a known batch, `len(cfg["sizes"])` of a literal list is the number of graphs."""
    from .values import TensorVal

    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("zip", "enumerate"):
        return None  # their stand-in SeqVal holds the zipped sequences, not the items (and they have no len)
    from .tensor_ops import Repeated, as_int

    if isinstance(value, SeqVal):
        return len(value.items)
    if isinstance(value, Repeated) and isinstance(value.length, int):
        return value.length  # `x.tolist()` of a long vector: that many numbers
    if isinstance(value, TensorVal) and value.shape is not None and not value.shape.variadic and value.shape.dims:
        return value.shape.dims[0]
    return None


_MAX_LISTED = 1024  # longer lists are left unknown: their items would cost more than they tell


def listed_data(count, element) -> Optional[SeqVal]:
    """`[[0.1] * 8 for _ in range(40)]`, `[i % 5 for i in range(n)]` with n known: a list of Python data
    (numbers, or lists of them) of a known length (`count`, from iteration_count), each item the element's
    facts. Tensors made of it (`torch.tensor(rows)` is [40, 8]) and reads of it (`labels[i]`, one Python
    int) then know their shapes."""
    from .scalars import is_number

    if count is None or not 0 <= count <= _MAX_LISTED or not (is_number(element) or _numbers(element)):
        return None
    return SeqVal((element,) * count)


def listed_range(range_args) -> Optional[SeqVal]:
    """`list(range(a, b))` of known ints: those ints, while few enough to list."""
    from ..dims import value as dim_value

    bounds = [dim_value(a.dim) if isinstance(a, DimVal) else None for a in range_args]
    if not 1 <= len(bounds) <= 2 or not all(isinstance(b, int) for b in bounds):
        return None
    numbers = range(*bounds)
    return SeqVal(tuple(DimVal(n) for n in numbers)) if len(numbers) <= _MAX_LISTED else None


def iteration_count(iterable, iter_node, range_args) -> Optional[int]:
    """How many items `for _ in <iter_node>` yields, when known: `range(n)` / `range(a, b)` of known ints
    (`range_args`: their values), a tracked sequence, a tensor's known first size."""
    from ..dims import value as dim_value

    if isinstance(iter_node, ast.Call) and isinstance(iter_node.func, ast.Name):
        if iter_node.func.id == "range" and not iter_node.keywords and 1 <= len(range_args) <= 2:
            bounds = [dim_value(a.dim) if isinstance(a, DimVal) else None for a in range_args]
            if None in bounds:
                return None
            return max(0, bounds[-1] - (bounds[0] if len(bounds) == 2 else 0))
        if iter_node.func.id == "zip" and isinstance(iterable, SeqVal) and iterable.items \
                and not iter_node.keywords and not any(isinstance(a, ast.Starred) for a in iter_node.args):
            # the stand-in holds the sequences: zip stops at the shortest
            counts = [iteration_count(item, None, []) for item in iterable.items]
            return min(counts) if all(isinstance(c, int) for c in counts) else None
        if iter_node.func.id in ("zip", "enumerate", "range"):
            return None
    if isinstance(iterable, Repeated):  # a list of like items of a known count (a TensorDataset's rows)
        return dim_value(iterable.length) if iterable.length is not None else None
    found = length(iterable, iter_node)
    return found if isinstance(found, int) else dim_value(found)


def _numbers(value) -> bool:
    from .scalars import is_number
    return isinstance(value, SeqVal) and not value.names and all(is_number(i) or _numbers(i) for i in value.items)
