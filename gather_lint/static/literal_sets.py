"""Sets of ints written in the code: `{n for edge in records for n in edge}`, `set(ids)`, `sorted(...)`.

A script that writes its records out (`records = [(101, 205), (205, 350)]`) and counts the distinct
ids (`num_nodes = len(sorted({n for e in records for n in e}))`) sizes its tables by that count;
the raw ids themselves, when used as positions, reach past it. The count is exact when every item
is a known int. Only comprehensions over names bound by their own loops are evaluated (no calls,
no conditions), so nothing is run twice.
"""
from __future__ import annotations

import ast
from typing import Dict, Optional

from .values import DimVal, Literal, SeqVal

_MOST = 4096


def comprehension(interp, node) -> Optional[SeqVal]:
    """`{elt for a in xs for b in a}` of known ints, as a SeqVal of its distinct items."""
    if not isinstance(node, ast.SetComp) or not isinstance(node.elt, ast.Name) \
            or any(gen.ifs or gen.is_async for gen in node.generators):
        return None
    if not isinstance(node.generators[0].iter, ast.Name):
        return None  # a name only: evaluating it here has no effect the usual walk would repeat
    first = interp.expr(node.generators[0].iter)
    if not _known(first):
        return None
    found = []
    if not _walk(node.generators, 0, {}, first, node.elt.id, found):
        return None
    return _distinct(found)


def call(name: str, args, kwargs) -> Optional[SeqVal]:
    """set(xs) / frozenset(xs) (distinct items, in first-seen order) and sorted(xs) of known ints; of a
    string written in the code, its distinct characters (a character vocabulary: `sorted(set(text))`)."""
    if not kwargs and len(args) == 1 and _text(args[0]) is not None:
        return _characters(name, _text(args[0]))
    if kwargs or len(args) != 1 or not isinstance(args[0], SeqVal) or args[0].names:
        return None
    if all(isinstance(i, Literal) and isinstance(i.value, str) for i in args[0].items) and name == "sorted":
        return SeqVal(tuple(sorted(args[0].items, key=lambda i: i.value)))  # sorted(set(text))
    items = args[0].items
    if not all(isinstance(i, DimVal) and isinstance(i.dim, int) for i in items):
        return None
    if name in ("set", "frozenset"):
        return _distinct(list(items))
    return SeqVal(tuple(sorted(items, key=lambda i: i.dim))) if name == "sorted" else None


def _text(value) -> Optional[str]:
    return value.value if isinstance(value, Literal) and isinstance(value.value, str) else None


def _characters(name: str, text: str) -> Optional[SeqVal]:
    """set(text) / sorted(text) of a written string: its (distinct) characters as one-character strings."""
    if len(text) > _MOST_CHARACTERS:
        return None
    chars = list(dict.fromkeys(text)) if name in ("set", "frozenset") else sorted(text)
    return SeqVal(tuple(Literal(c) for c in chars))


_MOST_CHARACTERS = 100_000


def _walk(generators, k: int, bound: Dict[str, object], iterable, elt: str, found: list) -> bool:
    gen = generators[k]
    if not _known(iterable):
        return False
    for item in iterable.items:
        names = _bind(gen.target, item)
        if names is None:
            return False
        scope = {**bound, **names}
        if k + 1 < len(generators):
            following = generators[k + 1].iter
            if not isinstance(following, ast.Name) or following.id not in scope:
                return False
            if not _walk(generators, k + 1, scope, scope[following.id], elt, found):
                return False
        elif elt in scope:
            found.append(scope[elt])
        else:
            return False
        if len(found) > _MOST:
            return False
    return True


def _bind(target, item) -> Optional[Dict[str, object]]:
    if isinstance(target, ast.Name):
        return {target.id: item}
    if isinstance(target, ast.Tuple) and isinstance(item, SeqVal) and len(target.elts) == len(item.items) \
            and all(isinstance(e, ast.Name) for e in target.elts):
        return {e.id: i for e, i in zip(target.elts, item.items)}
    return None


def _known(v) -> bool:
    return isinstance(v, SeqVal) and not v.names and len(v.items) <= _MOST


def _distinct(items: list) -> Optional[SeqVal]:
    if not all(isinstance(i, DimVal) and isinstance(i.dim, int) for i in items):
        return None
    seen = {}
    for i in items:
        seen.setdefault(i.dim, i)
    return SeqVal(tuple(seen.values()))
