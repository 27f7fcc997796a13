"""`mask[:, -1] = False` (or `= 0`) above `mask.sum(dim)`: one position along the summed dim is False in every
row, so no count reaches the dim's size (a top-p filter that always keeps one token)."""
from __future__ import annotations

import ast
from typing import Optional

from ..dims import normalize_dim
from .tree_walk import int_literal, own_nodes


def false_along(interp, name: str, dim: Optional[int], mask, line: int) -> bool:
    """Whether the scope being run writes False (or 0) into `name` at one position of `dim`, every other dim
    taken whole, on a line above `line`."""
    shape = getattr(mask, "shape", None)
    scope = getattr(interp, "function", None)
    if dim is None or shape is None or shape.variadic or scope is None:
        return False
    axis = normalize_dim(dim, len(shape.dims))
    if axis is None:
        return False
    for stmt in own_nodes(scope):
        if isinstance(stmt, ast.Assign) and stmt.lineno < line and len(stmt.targets) == 1 \
                and _writes_false(stmt.value) and _one_position_along(stmt.targets[0], name, axis, len(shape.dims)):
            return True
    return False


def _writes_false(node) -> bool:
    return isinstance(node, ast.Constant) and node.value in (False, 0) and not isinstance(node.value, float)


def _one_position_along(target, name: str, axis: int, rank: int) -> bool:
    """`name[:, k]`, `name[..., k]` (k an int), the other dims whole."""
    if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id == name):
        return False
    items = list(target.slice.elts) if isinstance(target.slice, ast.Tuple) else [target.slice]
    if any(isinstance(i, ast.Constant) and i.value is Ellipsis for i in items):
        at = next(k for k, i in enumerate(items) if isinstance(i, ast.Constant) and i.value is Ellipsis)
        items = items[:at] + [ast.Slice()] * (rank - len(items) + 1) + items[at + 1:]
    if len(items) != rank:
        return False
    return all((int_literal(i) is not None) if k == axis else _whole(i) for k, i in enumerate(items))


def _whole(node) -> bool:
    return isinstance(node, ast.Slice) and node.lower is None and node.upper is None and node.step is None
