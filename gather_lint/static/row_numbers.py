"""Row numbers spread along a batch's rows: `torch.arange(B)[:, None]`, `torch.arange(B).unsqueeze(1)`,
`.view(-1, 1)`, then maybe `.expand_as(ids)` / `.expand(-1, S)`. As the first key of `x[rows, ids]` with
ids [B, S] they pick each row; within a row every entry shares the row number, so the positions are as
distinct as the row's ids are."""
from __future__ import annotations

import ast
import bisect

from . import tree_walk
from .value_makers import made_by
from .values import TensorVal

_SPREADS = ("expand", "expand_as", "repeat", "broadcast_to")


def row_numbers(interp, node: ast.expr, value) -> bool:
    """Whether `node` (with `value`) is an arange along dim 0 made into a 2-d [B, 1] or [B, S] key."""
    if not isinstance(value, TensorVal) or value.shape is None or value.shape.variadic or len(value.shape.dims) != 2:
        return False
    return _column_of_arange(interp, node, 0)


def _column_of_arange(interp, node, depth: int) -> bool:
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _SPREADS:
        node = node.func.value
    if isinstance(node, ast.Name) and depth < 2:
        bound = _bound_value(interp, node)
        return bound is not None and _column_of_arange(interp, bound, depth + 1)
    return _made_a_column(node) and made_by(interp, _inner(node), ("arange",)) is not None


def _made_a_column(node) -> bool:
    """`a.unsqueeze(1)` / `.unsqueeze(-1)` / `.view(-1, 1)` / `.reshape(-1, 1)` / `a[:, None]` of a 1-d a."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        args = [a.value if isinstance(a, ast.Constant) else _negative(a) for a in node.args]
        if node.func.attr == "unsqueeze":
            return args in ([1], [-1])
        if node.func.attr in ("view", "reshape"):
            return args == [-1, 1]
        return False
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple) and len(node.slice.elts) == 2:
        first, second = node.slice.elts
        return isinstance(first, ast.Slice) and first.lower is None and first.upper is None \
            and isinstance(second, ast.Constant) and second.value is None
    return False


def _inner(node):
    return node.func.value if isinstance(node, ast.Call) else node.value


def _negative(node):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return -node.operand.value
    return None


def _bound_value(interp, name: ast.Name):
    """The value last assigned to `name` before its use, in the function being analysed."""
    scope = interp.function
    if scope is None:
        return None
    lines, stmts = _assignments(scope).get(name.id, ((), ()))
    at = bisect.bisect_left(lines, name.lineno)
    return stmts[at - 1].value if at else None


def _assignments(scope):
    """name -> (lines, ascending; the assignment at each, the first in ast.walk's order of two on a line)
    over every `... = name = ...` in the scope's tree; one walk per scope, kept on its node."""
    found = getattr(scope, "_gather_lint_row_number_bindings", None)
    if found is not None:
        return found
    by_name = {}
    for node in tree_walk.all_nodes(scope):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    by_name.setdefault(target.id, {}).setdefault(node.lineno, node)
    found = {n: (sorted(at), [at[line] for line in sorted(at)]) for n, at in by_name.items()}
    scope._gather_lint_row_number_bindings = found
    return found
