"""A `dim` out of range (GL002) that a caller passed in: reported at the caller's call, where the fix goes.

`scatter_mean(x, batch, size)` with `def scatter_mean(src, index, dim=0, dim_size=None)` hands the
number of graphs to `dim`; the helper's `out.scatter_add_(dim, ...)` then raises 'Dimension out of
range'. Inside the helper `dim` is only a parameter; the mistake is the positional argument at the
call. When the family call's dim is a plain parameter of the function run with a caller's facts, the
finding moves to the caller's call, and on up while that call only passes its own parameter of the same
name on (`scatter_sum(src, index, dim, dim_size)` inside scatter_mean); it stops at the call that hands
something else to the parameter (`scatter_mean(x, batch, size)` in forward).
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Optional

_CODE = "GL002"
_NOTE = "; passed in here: "  # one note, naming the argument at the call reported (earlier hops' dropped)
_BOUND_TO = "dim parameter"  # the parameter the moved dim argument binds to: `dim` passed on as `dim` moves on


def moved(callee, call_node: ast.Call, implicit: int, violations, bound) -> tuple:
    """(violations that stay, violations that move, the bound roles at the caller's call) for a callee
    run from `call_node`; `implicit` counts leading arguments the call does not spell (`self`)."""
    dim_node = bound.get("dim") if isinstance(bound, dict) else None
    if not any(v.code == _CODE for v in violations) or not isinstance(dim_node, ast.Name):
        return violations, [], None
    if bound.get(_BOUND_TO, dim_node.id) != dim_node.id:
        return violations, [], None  # `scatter_sum(x, batch, size)`: a size handed to `dim` is the mistake here
    argument = _argument_for(callee, call_node, dim_node.id, implicit)
    if argument is None:
        return violations, [], None
    stay = [v for v in violations if v.code != _CODE]
    passed = f"{_NOTE}`{ast.unparse(argument)}` goes to `{callee.name}()`'s parameter `{dim_node.id}`"
    moved_ones = [replace(v, message=v.message.split(_NOTE)[0] + passed) for v in violations if v.code == _CODE]
    return stay, moved_ones, {**bound, "dim": argument, _BOUND_TO: dim_node.id}


def _argument_for(callee, call_node: ast.Call, name: str, implicit: int) -> Optional[ast.AST]:
    """The argument of `call_node` bound to `callee`'s parameter `name` (None when not a plain one)."""
    if not isinstance(callee, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    params = [a.arg for a in callee.args.posonlyargs + callee.args.args]
    if name not in params and name not in [a.arg for a in callee.args.kwonlyargs]:
        return None
    for keyword in call_node.keywords:
        if keyword.arg == name:
            return keyword.value
    if name not in params or any(isinstance(a, ast.Starred) for a in call_node.args):
        return None
    position = params.index(name) - implicit
    return call_node.args[position] if 0 <= position < len(call_node.args) else None
