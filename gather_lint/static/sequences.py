"""Sizes held in Python sequences: `x.shape[:-1] + (6,)`, `torch.Size([4, 5])`, `list(x.shape)`,
`*batch, n, m = x.shape`.

Real code builds size arguments this way; a size sequence is tracked only while its length is
certain, so that `view(shape)` / `expand(*batch, n, m)` get either the right rank or none at all.
"""
from __future__ import annotations

import ast
from typing import List, Optional, Tuple

from .tensor_ops import Repeated
from .values import DimVal, SeqVal

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
        if isinstance(seq, SeqVal) and not seq.names and isinstance(count, DimVal) and isinstance(count.dim, int) \
                and 0 <= count.dim <= 16:
            return SeqVal(seq.items * count.dim)
    return None


def copy_of(args: list, kwargs: dict) -> Optional[SeqVal]:
    """list(s) / tuple(s) / torch.Size(s) of a tracked sequence."""
    if len(args) == 1 and not kwargs and isinstance(args[0], SeqVal) and not args[0].names:
        return SeqVal(args[0].items)
    if len(args) == 1 and not kwargs and isinstance(args[0], Repeated):
        return args[0]  # tuple(f(x) for x in xs): the same run of like elements
    return None


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


def length(value, node=None):
    """`len(x)` (x written as `node`): a tracked sequence's item count (a list a method changed is no
    longer tracked), a tensor's first size, None when unknown. `if len(actions) == 1:` is then decided
    for a known batch, `len(cfg["sizes"])` of a literal list is the number of graphs."""
    from .values import TensorVal

    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("zip", "enumerate"):
        return None  # their stand-in SeqVal holds the zipped sequences, not the items (and they have no len)
    if isinstance(value, SeqVal):
        return len(value.items)
    if isinstance(value, TensorVal) and value.shape is not None and not value.shape.variadic and value.shape.dims:
        return value.shape.dims[0]
    return None
