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
from typing import FrozenSet

from . import tree_walk
from .values import TensorVal


def read(loops, node: ast.Subscript, picked):
    """`x[:, prev:cur]` inside a loop over `cur` that writes `x[:, cur]`: the window holds no padding still ahead.
    `loops`: the enclosing `for` statements, innermost last."""
    if not isinstance(picked, TensorVal) or picked.domain is None or picked.domain.sentinel is None \
            or not isinstance(node.value, ast.Name):
        return picked
    upper = _last_slice_upper(node.slice)
    if not isinstance(upper, ast.Name):
        return picked
    if not any(isinstance(loop.target, ast.Name) and loop.target.id == upper.id and node.value.id in _written_by(loop)
               for loop in loops):
        return picked
    return replace(picked, domain=replace(picked.domain, sentinel=None, sentinel_line=None))


def _written_by(loop: ast.For) -> FrozenSet[str]:
    """The names of tensors the loop's body writes at its own index (`x[:, cur] = v`, `x[..., cur] = v`); kept on
    the loop's node, and only asked for when a window of a padded tensor is read in it."""
    written = getattr(loop, "_gather_lint_written_columns", None)
    if written is None:
        name = loop.target.id
        written = loop._gather_lint_written_columns = frozenset(
            target.value.id for stmt in loop.body for node in tree_walk.all_nodes(stmt) if isinstance(node, ast.Assign)
            for target in node.targets if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
            and _last_item_is(target.slice, name))
    return written


def _items(key):
    return key.elts if isinstance(key, ast.Tuple) else [key]


def _last_item_is(key, name: str) -> bool:
    last = _items(key)[-1]
    return isinstance(last, ast.Name) and last.id == name


def _last_slice_upper(key):
    last = _items(key)[-1]
    return last.upper if isinstance(last, ast.Slice) and last.step is None else None
