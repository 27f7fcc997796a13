"""GL032 on the value: a scatter of the number a buffer made by zeros/ones holds everywhere.

The buffer's `filled` mark says what a constructor left in it; the buffer must be made by that constructor in
this function (an attribute or a view may have been written elsewhere), the write must be the only one the
function makes to it before (a loop that writes another value elsewhere makes the same write a real one on its
next run), and the value written a number equal to the fill. A plain store of the fill, `log_det[outside] = 0.0`
in zeros, is left alone: code writes the value a region keeps on purpose, to say so.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..rules import gl032_write_changes_nothing as rule
from . import tree_walk
from .values import DimVal, Literal, TensorVal

_HELD = {"zeros": 0, "ones": 1}


def check_call(interp, node: ast.Call, op, bound: dict, values: dict) -> None:
    """`buf.scatter_(d, idx, v)`, `buf.index_fill_(d, idx, v)` and their out-of-place forms."""
    if op.name not in ("scatter", "index_fill") or "reduce" in bound:
        return
    payload = "value" if "value" in bound else "src"
    owner_node, owner = bound.get("input"), values.get("input")
    if payload not in bound or not isinstance(owner, TensorVal) or owner.filled not in _HELD or owner_node is None:
        return
    written = values.get(payload)
    number = _number(written)
    if number is None or number != _HELD[owner.filled] or not _only_write(interp, owner_node, node):
        return
    shown = repr(number) if isinstance(written, Literal) else str(int(number))
    buffer = interp.source.segment(owner_node)
    interp.flag(node, rule.unchanged(f"{buffer}.{op.spelled}(...)", buffer, owner.filled, shown), None)


def _number(value) -> Optional[float]:
    if isinstance(value, DimVal) and isinstance(value.dim, int):
        return value.dim
    if isinstance(value, Literal) and isinstance(value.value, (int, float)):
        return value.value  # True and False are 1 and 0 as well
    return None


def _only_write(interp, owner_node, write_node) -> bool:
    """The buffer is a constructor call itself, or a name the function binds once and writes only here before
    (what comes after, outside a loop, cannot have been there when this write ran)."""
    if isinstance(owner_node, ast.Call):
        return True
    scope = interp.function if interp.function is not None else getattr(interp.module, "tree", None)
    if not isinstance(owner_node, ast.Name) or scope is None:
        return False
    nodes = tree_walk.all_nodes(scope)  # a script's body as a whole: a function's own bindings count as well
    if not _made_here(nodes, owner_node.id):
        return False
    name, line, binds, writes = owner_node.id, write_node.lineno, 0, 0
    in_loop = any(isinstance(n, (ast.For, ast.While, ast.AsyncFor)) and n.lineno <= line <= (n.end_lineno or n.lineno)
                  for n in nodes)
    for n in nodes:
        if not in_loop and getattr(n, "lineno", 0) > line:
            continue
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store):
            binds += n.lineno != line  # `buf = buf.scatter(...)` rebinds it to the result of this write
        elif isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.ctx, ast.Store) and _names(n, name):
            writes += 1
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr.endswith("_") \
                and _names(n.func.value, name) and n is not write_node:
            writes += 1  # another in-place method on it (`buf.fill_(2)`, `buf[0].copy_(x)`)
        elif isinstance(n, ast.Call) and n is not write_node and any(_names(a, name) for a in n.args):
            writes += 1  # handed to a call that may write into it
    return binds == 1 and writes == 0


def _made_here(nodes, name: str) -> bool:
    """`name = torch.zeros(...)` (ones, `*_like`, `new_*`) in this scope."""
    return any(isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)
               and isinstance(n.value, ast.Call) and tree_walk.called_name(n.value) in _CONSTRUCTORS for n in nodes)


_CONSTRUCTORS = frozenset({"zeros", "ones", "zeros_like", "ones_like", "new_zeros", "new_ones"})


def _names(node, name: str) -> bool:
    """`buf`, `buf[...]`, `buf.x` (a view or part of it)."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return isinstance(node, ast.Name) and node.id == name
