"""Vectors of one value per row [B], read from the syntax that made them, for GL006's [B] against [B, 1].

A max/min over dim 1 without `keepdim` (`next_q.max(1)[0]`, `torch.max(q, dim=1)` unpacked, `.amax(1)`:
the bootstrap of a Q-learning target), a loss asked for one value per sample (`reduction="none"`,
unreduced_losses.py) and a distribution's `log_prob` of one action per sample (or its sum over the
action dims). The vector may be scaled or shifted on the way (`gamma * next_q.max(1)[0]`), named up to
two assignments back, or returned by a helper of this module or a method of this class
(`td = self._td_losses(batch)`). Asked only after the shapes found a [B] meeting a [B, 1].
"""
from __future__ import annotations

import ast
from typing import Optional

from . import keyword_aliases, unreduced_losses
from .last_assignment import last_assigned
from .tree_walk import own_nodes


_ROW_MAXES = {"max", "min", "amax", "amin"}


def made_by(interp, node) -> Optional[ast.Call]:
    """The call that made `node` one value per row, or None."""
    return _per_row(interp, node)


def never_paired(call) -> bool:
    """A per-sample loss or log-probability: pairing it with every other sample's weight is never the
    intent, even with the column made right at the operation (`(loss * w.view(-1, 1)).mean()`)."""
    return _log_prob(call) or not (isinstance(call.func, ast.Attribute) and call.func.attr in _ROW_MAXES)


def described(call) -> str:
    """How `call` made its vector, for the message."""
    if _log_prob(call):
        return f"one log-probability per sample, from `.log_prob()` at line {call.lineno}"
    if not (isinstance(call.func, ast.Attribute) and call.func.attr in _ROW_MAXES):
        return f"one loss per sample, from `reduction=\"none\"` at line {call.lineno}"
    return f"the {call.func.attr} over dim 1 at line {call.lineno}, which drops that dim"


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
            source = last_assigned(interp, node.id, node.lineno, first_unpacked=True)  # max's values come first
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
    elif not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("amax", "amin")):
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


def _over_dim_one(call) -> bool:
    """A max/min call given dim 1 (or -1 of a 2-d input: the shapes checked it is [B]) and no keepdim."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in _ROW_MAXES):
        return False
    keywords = keyword_aliases.keyword_nodes(call)
    if "keepdim" in keywords:
        return False
    function_form = isinstance(call.func.value, ast.Name) and call.func.value.id in ("torch", "th")
    dims = call.args[1:] if function_form else call.args
    dim = keywords.get("dim", dims[0] if dims else None)
    if isinstance(dim, ast.UnaryOp) and isinstance(dim.op, ast.USub) and isinstance(dim.operand, ast.Constant):
        return dim.operand.value == 1
    return isinstance(dim, ast.Constant) and dim.value == 1


def _log_prob(node) -> bool:
    """`dist.log_prob(actions)`, or its sum over the action dims (`.log_prob(a).sum(-1)`): one
    log-probability per sample (the shapes say it is [B])."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "sum":
        node = node.func.value
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "log_prob"
