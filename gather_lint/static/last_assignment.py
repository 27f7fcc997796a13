"""The expression a name was last given in the scope being run: a syntax-level look back for checks
that need to know how a value was made (a strict triangle, a fresh default-dtype buffer), asked only
after the abstract values already point at the rare case."""
from __future__ import annotations

import ast
import bisect
from typing import Dict, List, Tuple

from .tree_walk import own_nodes

# name -> (line numbers, ascending; the assignment at each): one walk of a scope however often it is asked
_Index = Dict[str, Tuple[List[int], List[ast.Assign]]]


def last_assigned(interp, name: str, before: int, first_unpacked: bool = False):
    """The value of the last plain `name = ...` above line `before` in the scope being run; with
    `first_unpacked`, of the last `name, ... = ...` instead (in a function only)."""
    scope = getattr(interp, "function", None)
    if scope is None and not first_unpacked:
        module = getattr(interp, "module", None)
        scope = getattr(module, "tree", None)
    if scope is None:
        return None
    lines, stmts = _index(scope, first_unpacked).get(name, ((), ()))
    at = bisect.bisect_left(lines, before)  # the assignments on lines above `before`
    return stmts[at - 1].value if at else None


def _index(scope, first_unpacked: bool) -> _Index:
    """The scope's single-target assignments by the name they bind (or unpack first); kept on the scope's
    node. Of two on one line, the first in source order counts, as a scan keeping the first at the
    highest line would."""
    attr = "_gather_lint_first_unpacked" if first_unpacked else "_gather_lint_assigned"
    found = getattr(scope, attr, None)
    if found is not None:
        return found
    found = {}
    for stmt in own_nodes(scope):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            name = _bound_name(stmt.targets[0], first_unpacked)
            if name is not None:
                found.setdefault(name, {}).setdefault(stmt.lineno, stmt)
    found = {name: (sorted(at), [at[line] for line in sorted(at)]) for name, at in found.items()}
    setattr(scope, attr, found)
    return found


def _bound_name(target, first_unpacked: bool):
    if first_unpacked:
        if isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name):
            return target.elts[0].id
        return None
    return target.id if isinstance(target, ast.Name) else None
