"""A callee's size names in the caller's words.

A helper documented `x (Tensor): (N, C)`, `y (Tensor): (M, C)`, returning `(N, M)`, called as
`pairwise_distance(nodes, points)` with nodes [M, 3] and points [N, 3]: inside, the callee's own names win
(they are its documentation), so the run sees x as [N, 3] and returns [N, M]. Handed back as written, that
result would read in the caller as [N, M] in the caller's names, the transpose of what it is. The callee's
declared names are bound to the sizes the call gives them, and its result is told in those sizes: [M, N].
"""
from __future__ import annotations

import dataclasses
from typing import Dict

from ..dims import Shape, Sym

_CONFLICT = object()  # one callee name given two sizes by one call: neither is its caller's name
_MAX_DEPTH = 12  # values nest shallowly (a tuple of tensors, their domains); deeper ones are left as they are


def note(renames: Dict[str, object], declared, given) -> None:
    """Add to `renames` what binding `given` (the caller's value) to a parameter declared `declared` tells:
    each declared size name, the caller's size in its place."""
    if isinstance(getattr(declared, "dim", None), Sym) and hasattr(given, "dim"):  # `n: int`, given 8 or `K`
        _pair(renames, declared.dim, given.dim)
        return
    mine, theirs = getattr(declared, "shape", None), getattr(given, "shape", None)
    if not isinstance(mine, Shape) or not isinstance(theirs, Shape) or mine.variadic or theirs.variadic \
            or len(mine.dims) != len(theirs.dims):
        return
    for d, g in zip(mine.dims, theirs.dims):
        _pair(renames, d, g)


def _pair(renames: Dict[str, object], mine, theirs) -> None:
    if not isinstance(mine, Sym) or not isinstance(theirs, Sym):
        # a size the caller does not know, or knows only as a number, keeps the callee's name (a number
        # sizes it already): the name may say what the dim is (`bs`, `vocab`) where the number cannot
        return
    seen = renames.get(mine.name)
    if seen is None:
        renames[mine.name] = theirs
    elif seen is not _CONFLICT and seen != theirs:
        renames[mine.name] = _CONFLICT


def in_caller_words(value, renames: Dict[str, object]):
    """`value` (a result of the callee) with each renamed size name replaced by the caller's size."""
    mapping = {name: dim for name, dim in renames.items() if dim is not _CONFLICT
               and not (isinstance(dim, Sym) and dim.name == name)}
    if not mapping:
        return value
    return _renamed(value, mapping, 0)


def _renamed(value, mapping: dict, depth: int):
    if depth > _MAX_DEPTH:
        return value
    if isinstance(value, Sym):
        return mapping.get(value.name, value)
    if isinstance(value, tuple):
        items = tuple(_renamed(v, mapping, depth + 1) for v in value)
        return items if any(a is not b for a, b in zip(items, value)) else value
    if isinstance(value, list):
        return [_renamed(v, mapping, depth + 1) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in dataclasses.fields(value):
            if not f.init:
                continue
            old = getattr(value, f.name)
            new = _renamed(old, mapping, depth + 1)
            if new is not old:
                changes[f.name] = new
        return dataclasses.replace(value, **changes) if changes else value
    return value

