"""The expression a name was last given in the scope being run: a syntax-level look back for checks
that need to know how a value was made (a strict triangle, a fresh default-dtype buffer), asked only
after the abstract values already point at the rare case."""
from __future__ import annotations

import ast

from .tree_walk import own_nodes


def last_assigned(interp, name: str, before: int, first_unpacked: bool = False):
    """The value of the last plain `name = ...` above line `before` in the scope being run; with
    `first_unpacked`, of the last `name, ... = ...` instead (in a function only)."""
    scope = getattr(interp, "function", None)
    if scope is None and not first_unpacked:
        module = getattr(interp, "module", None)
        scope = getattr(module, "tree", None)
    if scope is None:
        return None
    found = None
    for stmt in own_nodes(scope):
        if isinstance(stmt, ast.Assign) and stmt.lineno < before and len(stmt.targets) == 1 \
                and _names(stmt.targets[0], name, first_unpacked) and (found is None or stmt.lineno > found.lineno):
            found = stmt
    return found.value if found is not None else None


def _names(target, name: str, first_unpacked: bool) -> bool:
    if first_unpacked:
        return isinstance(target, ast.Tuple) and bool(target.elts) and isinstance(target.elts[0], ast.Name) \
            and target.elts[0].id == name
    return isinstance(target, ast.Name) and target.id == name
