"""GL021 for top-p (nucleus) filters written for one row and run on a batch.

A top-p filter sorts the scores along the last dim, marks the sorted positions whose cumulative
probability passes p (`remove = cum_probs > top_p`, `cum_probs = sorted_probs.cumsum(dim=-1)`), and
keeps at least the most probable token with `remove[0] = False` (or shifts the mask right by one with
`remove[1:] = remove[:-1].clone()` before it). Those subscripts index the first dim: on a 1-d row of
scores they are the sorted positions, but on batched [B, V] scores they are rows, so the first row
keeps every token and the others may lose all of them (NaN probabilities after the softmax). The
positions are `remove[..., 0]` and `remove[..., 1:] = remove[..., :-1].clone()`.

Reported when the mask's rank is known to be 2 or more, its first dim is not known to be 1, and the
mask is a comparison of a cumulative sum over its last dim. No prefilter of its own: such a filter
maps its sorted mask back with `scatter` / `gather`, which keeps its block parsed.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..dims import normalize_dim, value
from ..rules import gl021_top_k_keeps_one_extra as rule
from .normalised_axis import _bindings
from .values import TensorVal

_DEPTH = 6


def check(interp, node: ast.Assign, target: ast.Subscript) -> None:
    """`mask[0] = False` / `mask[1:] = mask[:-1]...` on a batched top-p removal mask."""
    if not isinstance(target.value, ast.Name) or interp.function is None:
        return
    form = _guard_form(target, node.value)
    if form is None:
        return
    mask = interp.env.get(target.value.id)
    shape = mask.shape if isinstance(mask, TensorVal) else None
    if shape is None or shape.variadic or len(shape.dims) < 2 or value(shape.dims[0]) == 1:
        return
    made = _value_before(target.value, interp.function, node.lineno)
    if not isinstance(made, ast.Compare) or len(made.ops) != 1 or \
            not any(_cumulative_last(side, interp.function, node.lineno, len(shape.dims), _DEPTH)
                    for side in (made.left, made.comparators[0])):
        return
    segment = interp.source.segment
    fixed = f"{target.value.id}[..., 0] = {segment(node.value)}" if form == "first" else \
        f"{target.value.id}[..., 1:] = {target.value.id}[..., :-1].clone()"
    interp.flag(node, rule.check_batched_guard(segment(node), target.value.id, shape, form, made.lineno, fixed), None)


def _guard_form(target: ast.Subscript, value_node) -> Optional[str]:
    """"first" for `mask[0] = False/0`, "shift" for `mask[1:] = mask[:-1](.clone())`, else None."""
    key = target.slice
    if isinstance(key, ast.Constant) and key.value == 0 and not isinstance(key.value, bool):
        return "first" if isinstance(value_node, ast.Constant) and value_node.value in (False, 0) else None
    if isinstance(key, ast.Slice) and _is_int(key.lower, 1) and key.upper is None and key.step is None:
        source = value_node.func.value if isinstance(value_node, ast.Call) and isinstance(value_node.func, ast.Attribute) \
            and value_node.func.attr in ("clone", "detach") else value_node
        if isinstance(source, ast.Subscript) and isinstance(source.value, ast.Name) and \
                source.value.id == target.value.id and isinstance(source.slice, ast.Slice) and \
                source.slice.lower is None and _is_int(source.slice.upper, -1):
            return "shift"
    return None


def _is_int(node, number: int) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return node.operand.value == -number
    return isinstance(node, ast.Constant) and node.value == number and not isinstance(node.value, bool)


def _cumulative_last(node, function, line: int, rank: int, depth: int) -> bool:
    """`x.cumsum(dim=-1)` / `torch.cumsum(x, dim=-1)` (the last dim), directly or through names."""
    if depth == 0:
        return False
    if isinstance(node, ast.Name):
        made = _value_before(node, function, line)
        return made is not None and _cumulative_last(made, function, line, rank, depth - 1)
    if isinstance(node, ast.BinOp):  # `cum - sorted_probs >= p`: the mass before each token
        return any(_cumulative_last(side, function, line, rank, depth - 1) for side in (node.left, node.right))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "cumsum":
        on_module = isinstance(node.func.value, ast.Name) and node.func.value.id == "torch"
        dim = next((k.value for k in node.keywords if k.arg == "dim"), None)
        if dim is None:
            at = 1 if on_module else 0
            dim = node.args[at] if len(node.args) > at else None
        written = -_int(dim.operand) if isinstance(dim, ast.UnaryOp) and isinstance(dim.op, ast.USub) else _int(dim)
        return written is not None and normalize_dim(written, rank) == rank - 1
    return False


def _value_before(name: ast.Name, function, line: int):
    """The value of the name's last plain assignment before `line` (`drop = mass > p` before a later
    `drop = drop.scatter(...)`); None when a loop, `with` or parameter binds it there instead."""
    before = [b for b in _bindings(function).get(name.id, ()) if getattr(b, "lineno", line) < line]
    if not before:
        return None
    last = max(before, key=lambda b: b.lineno)
    if isinstance(last, ast.Assign) and len(last.targets) == 1 and isinstance(last.targets[0], ast.Name):
        return last.value
    return None


def _int(node) -> Optional[int]:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, int) else None
