"""GL006, the other way round: a gathered pick squeezed to `[B]` (`q.gather(1, a.unsqueeze(1)).squeeze(1)`)
meets a per-sample column `[B, 1]` (returns, targets, old values kept as columns). Broadcasting aligns
the right-most dims: the result is the `[B, B]` outer product, silently (an elementwise loss only warns).

Evidence: the pick is a gather's result with its singleton squeezed away (in the operand itself or in
the assignment that made the name, one step back), or another vector of one value per row
(per_row_values.py: a row max, an unreduced loss, a log_prob), and the column is [B, 1] with the same
B (named or a known size > 1). A column made right there (`pick - t.unsqueeze(1)`) is a deliberate
pairing: skipped. Shapes are compared first, so the syntax is only looked at for the rare [B] against
[B, 1] pair.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..dims import must_equal, value
from ..rules import gl006_missing_squeeze as missing_squeeze
from . import per_row_values
from .last_assignment import last_assigned
from .values import TensorVal

_PICKERS = {"gather", "take_along_dim"}
_FLATTENERS = {"squeeze", "view", "reshape", "flatten"}


def check(interp, node, left_node, left, right_node, right, op: str) -> None:
    for pick_node, pick, col_node, col in ((left_node, left, right_node, right), (right_node, right, left_node, left)):
        if not _row_against_column(pick, col) or col.kept_singleton is not None:
            continue  # a column a gather, a head or keepdim kept: dataflow_checks reports it already
        paired = _made_here(col_node)  # `pick - t.unsqueeze(1)`: a pairing on purpose, unless never one
        gather = _squeezed_gather(interp, pick_node) if not paired else None
        best = per_row_values.made_by(interp, pick_node) if gather is None else None
        if best is not None and paired and not per_row_values.never_paired(best):
            best = None
        if gather is not None or best is not None:
            made = None if best is None else per_row_values.described(best)
            written = left.shape if missing_squeeze.in_place(op) else None  # `x *= y`: x keeps its shape
            interp.flag(node, missing_squeeze.check_squeezed_pick(
                interp.source.segment(pick_node), pick.shape, interp.source.segment(col_node), col.shape, op,
                (gather or best).lineno, made, written), None)
            return


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
