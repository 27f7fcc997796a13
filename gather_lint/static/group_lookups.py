"""Writes through unique()'s inverse that keep one value per group on purpose (GL013 stays silent).

`_, inverse = torch.unique(key, return_inverse=True)` numbers the groups of equal keys, and `buf[inverse] = v`
writes every member of a group to one position. That loses data only where the members carry different
values meant to meet. Two kinds of values carry none, read from the function's own code:

* the members' own row numbers (`lookup[inverse[:n]] = torch.arange(n)`): a table from a group to one of its
  rows, the inverse map of a coordinate or cluster lookup. Row numbers are never meant to be added up (the
  sum of two rows' numbers names no row); any member (or the only one) is what such a table holds;
* a grouping of a part of the key (`key = k_s * (2 * S + 1) + k_c`, `_, inv_s = torch.unique(k_s, ...)`,
  then `shell_of_cluster[inverse] = inv_s`), or that part itself: members of one group share the key, so
  they share each part it was built from, and every write to a position carries the same value.
"""
from __future__ import annotations

import ast
from typing import Optional

from .tree_walk import called_name, own_nodes

_PLACES = ("device", "dtype", "shape", "ndim")
_KEEPS = ("to", "long", "int", "cpu", "cuda", "contiguous", "clone", "detach", "view", "reshape", "flatten")


def one_value_per_group(interp, components, value_node, value_maker) -> bool:
    """`buf[inverse] = <row numbers>` or `buf[inverse] = <a grouping of a part of the key>` (module docstring)."""
    function = interp.function
    if function is None or len(components) != 1:
        return False
    line = getattr(value_node, "lineno", None)
    if line is None:
        return False
    key = _unique_input(function, components[0], line)
    if key is None:
        return False
    if value_maker(value_node, ("arange",)) is not None:
        return True
    parts = _names_of(function, key, line)
    part = _unique_input(function, value_node, line)
    if part is None:
        part = _own(value_node)
    return isinstance(part, ast.Name) and part.id in parts


def _own(node):
    """`k_s`, `k_s.to(device)`: the name whose values are written."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _KEEPS:
        node = node.func.value
    return node


def _unique_input(function, node, line: int) -> Optional[ast.AST]:
    """X for an index that is the inverse of `torch.unique(X, return_inverse=True)` / `X.unique(...)` (through
    `.to(...)` and the like, a slice of it, and names bound to these); else None."""
    for _ in range(6):
        node = _own(node)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            node = node.value  # `inverse[: support.shape[0]]`: part of the inverse, the same numbering
            continue
        if not isinstance(node, ast.Name):
            return None
        bound = _last_binding(function, node.id, line)
        if bound is None:
            return None
        target, value = bound
        if isinstance(target, ast.Tuple):
            names = [e.id if isinstance(e, ast.Name) else None for e in target.elts]
            if len(names) < 2 or names[1] != node.id or not _returns_inverse(value):
                return None
            return _unique_argument(value)
        line = value.lineno  # `inv_s = inv_s.to(device)`: the earlier binding made the values
        node = value
    return None


def _unique_argument(call: ast.Call):
    """X of `torch.unique(X, ...)`, `X.unique(...)` or `unique(X, ...)`."""
    func = call.func
    if isinstance(func, ast.Attribute) and not (isinstance(func.value, ast.Name) and func.value.id == "torch"):
        return func.value
    return call.args[0] if call.args else None


def _returns_inverse(value) -> bool:
    return isinstance(value, ast.Call) and called_name(value) == "unique" and any(
        k.arg == "return_inverse" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in value.keywords)


def _last_binding(function, name: str, line: int):
    """(target, value) of the last `name = ...` or `..., name, ... = ...` above `line` in the function."""
    found = None
    for stmt in own_nodes(function):
        if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1 or stmt.lineno >= line:
            continue
        target = stmt.targets[0]
        if isinstance(target, ast.Name) and target.id == name or isinstance(target, ast.Tuple) and any(
                isinstance(e, ast.Name) and e.id == name for e in target.elts):
            if found is None or stmt.lineno >= found[1].lineno:
                found = (target, stmt.value)
    return found


def _names_of(function, node, line: int, depth: int = 2) -> set:
    """The names a key is built from: those in its expression, and for a name, those of its binding above."""
    # not a name read only for its device or shape (`.to(s_vectors.device)`): its values are not in the key
    placed = {id(n.value) for n in ast.walk(node) if isinstance(n, ast.Attribute) and n.attr in _PLACES}
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and id(n) not in placed}
    if depth and isinstance(_own(node), ast.Name):
        bound = _last_binding(function, _own(node).id, line)
        if bound is not None and isinstance(bound[0], ast.Name):
            names |= _names_of(function, bound[1], bound[1].lineno, depth - 1)
    return names
