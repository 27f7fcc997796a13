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
    if dim is None or shape is None or shape.variadic or scope is None or getattr(mask, "dtype", None) != "bool":
        return False
    axis = normalize_dim(dim, len(shape.dims))
    if axis is None:
        return False
    return any(lineno < line and _one_position_along(target, name, axis, len(shape.dims))
               for lineno, target in _false_writes(scope).get(name, ()))


def _false_writes(scope) -> dict:
    """{name: [(line, target)]} of the scope's `name[...] = False` (or `= 0`) statements, read once per scope."""
    found = getattr(scope, "_gather_lint_false_writes", None)
    if found is None:
        found = {}
        for stmt in own_nodes(scope):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and _writes_false(stmt.value) \
                    and isinstance(stmt.targets[0], ast.Subscript) and isinstance(stmt.targets[0].value, ast.Name):
                found.setdefault(stmt.targets[0].value.id, []).append((stmt.lineno, stmt.targets[0]))
        scope._gather_lint_false_writes = found
    return found


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
