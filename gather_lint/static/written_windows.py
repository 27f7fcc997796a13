"""Windows that end where a loop writes: `for cur in range(start, total): ... x[:, prev:cur] ...; x[:, cur] = nxt`.

An autoregressive buffer is filled with padding, then the loop writes column `cur` each round and feeds the model
the columns before it. A read of `x[..., a:cur]` inside such a loop stops before the column the loop writes: it reads
what earlier rounds (or the prompt) wrote, not the padding still ahead. The padding value is not taken as present in
such a window; whether the columns before the loop's first round were all written is left unknown, so nothing is
claimed about them either way.
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import FrozenSet, Tuple

from . import tree_walk
from .values import TensorVal

WrittenColumns = Tuple[str, FrozenSet[str]]  # (the loop's name, the tensors it writes at [..., name])


def written_by(loop: ast.For) -> WrittenColumns:
    """The names of tensors the loop's body writes at its own index (`x[:, cur] = v`, `x[..., cur] = v`)."""
    if not isinstance(loop.target, ast.Name):
        return "", frozenset()
    name = loop.target.id
    written = set()
    for stmt in loop.body:
        for node in tree_walk.all_nodes(stmt):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
                            and _last_item_is(target.slice, name):
                        written.add(target.value.id)
    return name, frozenset(written)


def read(loops, node: ast.Subscript, picked):
    """`x[:, prev:cur]` inside a loop over `cur` that writes `x[:, cur]`: the window holds no padding still ahead."""
    if not isinstance(picked, TensorVal) or picked.domain is None or picked.domain.sentinel is None \
            or not isinstance(node.value, ast.Name):
        return picked
    upper = _last_slice_upper(node.slice)
    if not isinstance(upper, ast.Name):
        return picked
    if not any(upper.id == name and node.value.id in written for name, written in loops):
        return picked
    return replace(picked, domain=replace(picked.domain, sentinel=None, sentinel_line=None))


def _items(key):
    return key.elts if isinstance(key, ast.Tuple) else [key]


def _last_item_is(key, name: str) -> bool:
    last = _items(key)[-1]
    return isinstance(last, ast.Name) and last.id == name


def _last_slice_upper(key):
    last = _items(key)[-1]
    return last.upper if isinstance(last, ast.Slice) and last.step is None else None
