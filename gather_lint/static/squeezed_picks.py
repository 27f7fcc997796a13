"""GL006, the other way round: a gathered pick squeezed to `[B]` (`q.gather(1, a.unsqueeze(1)).squeeze(1)`)
meets a per-sample column `[B, 1]` (returns, targets, old values kept as columns). Broadcasting aligns
the right-most dims: the result is the `[B, B]` outer product, silently (an elementwise loss only warns).

Evidence: the pick is a gather's result with its singleton squeezed away (in the operand itself or in
the assignment that made the name, one step back), or the values of a max/min over dim 1 without
`keepdim` (`next_q.max(1)[0]`, the bootstrap of a Q-learning target: one best value per row), and the
column is [B, 1] with the same B (named or a known size > 1). The pick may be scaled on the way
(`gamma * next_q.max(1)[0]`): the operand is still one value per row. A loss asked for one value per
sample (`F.smooth_l1_loss(q, target, reduction="none")`) and a distribution's `log_prob` of one action
per sample are such vectors too, and so is what a helper of this module or a method of this class
returns when its return is one of them (`td = self._td_losses(batch)`). A column made right there (`pick - t.unsqueeze(1)`) is a deliberate pairing: skipped.
Shapes are compared first, so the syntax is only looked at for the rare [B] against [B, 1] pair.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..dims import Shape, must_equal, value
from ..rules import gl006_missing_squeeze as missing_squeeze
from . import unreduced_losses
from .last_assignment import last_assigned
from .tree_walk import own_nodes
from .values import TensorVal

_PICKERS = {"gather", "take_along_dim"}
_FLATTENERS = {"squeeze", "view", "reshape", "flatten"}


def check(interp, node, left_node, left, right_node, right, op: str) -> None:
    for pick_node, pick, col_node, col in ((left_node, left, right_node, right), (right_node, right, left_node, left)):
        if not _row_against_column(pick, col) or _made_here(col_node) or col.kept_singleton is not None:
            continue  # a column a gather, a head or keepdim kept: dataflow_checks reports it already
        gather = _squeezed_gather(interp, pick_node)
        best = _per_row(interp, pick_node) if gather is None else None
        if gather is not None or best is not None:
            made = None if best is None else _described(best)
            interp.flag(node, missing_squeeze.check_squeezed_pick(
                interp.source.segment(pick_node), pick.shape, interp.source.segment(col_node), col.shape, op,
                (gather or best).lineno, made), None)
            return


def _log_prob(node) -> bool:
    """`dist.log_prob(actions)`, or its sum over the action dims (`.log_prob(a).sum(-1)`): one
    log-probability per sample (the shapes say it is [B])."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "sum":
        node = node.func.value
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "log_prob"


def _described(call) -> str:
    if _log_prob(call):
        return f"one log-probability per sample, from `.log_prob()` at line {call.lineno}"
    if not (isinstance(call.func, ast.Attribute) and call.func.attr in _ROW_MAXES):
        return f"one loss per sample, from `reduction=\"none\"` at line {call.lineno}"
    return f"the {call.func.attr} over dim 1 at line {call.lineno}, which drops that dim"


def _row_against_column(pick, col) -> bool:
    """[B] with [B, 1], B the same size and not 1."""
    if not (isinstance(pick, TensorVal) and isinstance(col, TensorVal)):
        return False
    a, b = pick.shape, col.shape
    if a is None or b is None or a.variadic or b.variadic or len(a.dims) != 1 or len(b.dims) != 2:
        return False
    rows = a.dims[0]
    return value(b.dims[1]) == 1 and must_equal(rows, b.dims[0]) and value(rows) != 1


def _made_here(node) -> bool:
    """`t.unsqueeze(1)`, `t[:, None]`, `t.view(-1, 1)` written at the operation: the pairing is deliberate."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in ("unsqueeze", "view", "reshape", "expand", "repeat")
    if isinstance(node, ast.Subscript):
        return any(isinstance(n, ast.Constant) and n.value is None for n in ast.walk(node.slice))
    return False


def _squeezed_gather(interp, node, depth: int = 0) -> Optional[ast.Call]:
    """The gather call whose result `node` flattens to 1-d, through up to two names assigned in this function."""
    if isinstance(node, ast.UnaryOp):
        return _squeezed_gather(interp, node.operand, depth)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _FLATTENERS:
        inner = node.func.value
        if _is_gather(inner):
            return inner
        if isinstance(inner, ast.Name) and depth < 2:
            source = last_assigned(interp, inner.id, node.lineno)
            return source if source is not None and _is_gather(source) else None
        return None
    if isinstance(node, ast.Name) and depth < 2:
        source = last_assigned(interp, node.id, node.lineno)
        return _squeezed_gather(interp, source, depth + 1) if source is not None else None
    return None


def _is_gather(node) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _PICKERS


_ROW_MAXES = {"max", "min", "amax", "amin"}


def row_value(interp, node) -> Optional[ast.Call]:
    """The row max or unreduced loss that `node` holds one value per row of (regrown_columns.py)."""
    return _per_row(interp, node)


def _per_row(interp, node, depth: int = 0) -> Optional[ast.Call]:
    """The `x.max(1)` / `torch.max(x, 1)` / `x.amax(1)` whose per-row values `node` is, or the loss
    with `reduction="none"` it holds, scaled or not, through up to two names assigned in this function."""
    if isinstance(node, ast.UnaryOp):
        return _per_row(interp, node.operand, depth)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div, ast.Add, ast.Sub)):
        return _per_row(interp, node.left, depth) or _per_row(interp, node.right, depth)
    if isinstance(node, ast.Name) and depth < 2:
        source = last_assigned(interp, node.id, node.lineno)
        if source is None:
            source = _unpacked(interp, node.id, node.lineno)
            return source if source is not None and _over_dim_one(source) else None
        return _per_row(interp, source, depth + 1)
    if unreduced_losses.spelled(node, interp.env) or _log_prob(node):
        return node
    helper = _helper(interp, node) if depth < 2 else None
    if helper is not None:  # `td = self._td_losses(batch)`: what the helper returns, read the same way
        inside = _Scope(interp, helper)
        for ret in own_nodes(helper):
            found = _per_row(inside, ret.value, depth + 1) if isinstance(ret, ast.Return) and ret.value else None
            if found is not None:
                return found
        return None
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == 0:
        node = node.value  # (values, indices)[0]
    elif isinstance(node, ast.Attribute) and node.attr == "values":
        node = node.value
    elif not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("amax", "amin")):
        return None
    return node if _over_dim_one(node) else None


def _helper(interp, node) -> Optional[ast.AST]:
    """The def of `self.method(...)` (this class's) or `function(...)` (this module's) that `node` calls."""
    module = getattr(interp, "module", None)
    if module is None or not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        return module.methods.get((getattr(interp, "class_name", None), func.attr))
    if isinstance(func, ast.Name):
        return module.functions.get(func.id)
    return None


class _Scope:
    """A helper's body read for syntax only: its own assignments, the caller's view of `self`."""

    def __init__(self, interp, function):
        self.function, self.module, self.env = function, interp.module, interp.env
        self.class_name = getattr(interp, "class_name", None)


def _unpacked(interp, name: str, before: int) -> Optional[ast.AST]:
    """The value of the last `name, _ = ...` above line `before` (max's values come first)."""
    scope = getattr(interp, "function", None)
    if scope is None:
        return None
    found = None
    for stmt in own_nodes(scope):
        if isinstance(stmt, ast.Assign) and stmt.lineno < before and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], ast.Tuple) and stmt.targets[0].elts \
                and isinstance(stmt.targets[0].elts[0], ast.Name) and stmt.targets[0].elts[0].id == name \
                and (found is None or stmt.lineno > found.lineno):
            found = stmt
    return found.value if found is not None else None


def _over_dim_one(call) -> bool:
    """A max/min call given dim 1 (or -1 of a 2-d input: the shapes checked it is [B]) and no keepdim."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in _ROW_MAXES):
        return False
    keywords = {k.arg: k.value for k in call.keywords}
    if "keepdim" in keywords:
        return False
    function_form = isinstance(call.func.value, ast.Name) and call.func.value.id in ("torch", "th")
    dims = call.args[1:] if function_form else call.args
    dim = keywords.get("dim", dims[0] if dims else None)
    if isinstance(dim, ast.UnaryOp) and isinstance(dim.op, ast.USub) and isinstance(dim.operand, ast.Constant):
        return dim.operand.value == 1
    return isinstance(dim, ast.Constant) and dim.value == 1
