"""GL006 across a call: a parameter annotated `[B, 1]` (a column) that the caller fills with a `[B]`
(a gathered pick squeezed too early), or annotated `[B]` and given a `[B, 1]`. The callee combines it
with its other, correctly shaped, parameters; broadcasting then makes the `[B, B]` outer product.

The evidence is the author's own: the annotation says which shape the callee was written for, the
caller's code proves another rank, and the other operand has the annotated shape. Both ranks have to
differ by one trailing singleton, so a callee written for any rank is never reported.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..dims import Shape, broadcast, must_equal, value
from ..rules import gl006_missing_squeeze as missing_squeeze
from .values import TensorVal


def note(interp, name: str, declared, bound) -> None:
    """Remember a parameter whose annotation lost to the caller's rank (calls.fill_gaps)."""
    if isinstance(declared, TensorVal) and isinstance(bound, TensorVal) and bound is not declared \
            and _column_pair(declared.shape, bound.shape):
        if not hasattr(interp, "passed_columns"):
            interp.passed_columns = {}
        interp.passed_columns[name] = (declared.shape, bound)


def check(interp, node, left_node, left, right_node, right, op: str) -> None:
    """`param op other`, both ways round, with param passed at the other rank than annotated."""
    passed = getattr(interp, "passed_columns", None)
    if not passed:
        return
    for mine_node, mine, other_node, other in ((left_node, left, right_node, right), (right_node, right, left_node, left)):
        if not isinstance(mine_node, ast.Name) or mine_node.id not in passed or not isinstance(other, TensorVal):
            continue
        declared, bound = passed[mine_node.id]
        if mine is not bound:
            continue  # reassigned in the callee: no longer the caller's tensor
        grown = _outer_product(declared, bound.shape, other.shape)
        if grown is not None:
            interp.flag(node, missing_squeeze.check_passed_rank(
                mine_node.id, declared, bound.shape, interp.source.segment(other_node), other.shape, grown, op), None)
            return


def _column_pair(declared: Optional[Shape], given: Optional[Shape]) -> bool:
    """[.., 1] against [..] (or the reverse): the same dims but for one trailing singleton."""
    if declared is None or given is None or declared.variadic or given.variadic:
        return False
    longer, shorter = (declared, given) if len(declared.dims) > len(given.dims) else (given, declared)
    return len(longer.dims) == len(shorter.dims) + 1 == 2 and value(longer.dims[-1]) == 1


def _outer_product(declared: Shape, given: Shape, other: Optional[Shape]) -> Optional[Shape]:
    """The broadcast of the caller's tensor with an operand shaped as the annotation says, when it is
    the [B, B] outer product (B not known to be 1)."""
    if other is None or other.variadic or len(other.dims) != len(declared.dims):
        return None
    if not all(must_equal(a, b) or (value(a) == 1 and value(b) == 1) for a, b in zip(declared.dims, other.dims)):
        return None
    rows = [d for d in given.dims if value(d) != 1]
    if len(rows) != 1 or value(rows[0]) == 1 or rows[0] is None:
        return None
    grown = broadcast(given, other)
    if grown is None or len(grown.dims) != 2 or any(d is None or value(d) == 1 for d in grown.dims):
        return None
    return grown
