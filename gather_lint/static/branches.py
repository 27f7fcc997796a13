"""Conditions whose outcome is certain: `if flat:` with `flat=False` from the call site, `if dim == 0:`,
`if x.dim() == 3:` with a known rank.

A branch that cannot run is not analysed: a helper written for several layouts must not be checked
with one call's shapes in the branch meant for another layout.
"""
from __future__ import annotations

import ast
import operator
from typing import List, Optional

from ..dims import must_differ, must_equal, value
from . import python_types
from .values import DimVal, Literal, SeqVal

_ORDER = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}


def truth(v) -> Optional[bool]:
    """The truth value of an abstract value, when certain."""
    if isinstance(v, Literal) and (v.value is None or isinstance(v.value, (bool, str, float))):
        return bool(v.value)
    if isinstance(v, DimVal) and value(v.dim) is not None:
        return bool(value(v.dim))
    return None


def compare(left, op: ast.cmpop, right) -> Optional[Literal]:
    """`a == b`, `a is None`, `a < b` between Python constants and tracked ints, when certain."""
    if isinstance(op, (ast.Is, ast.IsNot)):
        if isinstance(left, Literal) and isinstance(right, Literal) and right.value is None:
            same = left.value is None
        elif isinstance(right, Literal) and right.value is None and python_types.never_none(left):
            same = False  # ints, displays, instances: `alpha is None` with a list passed for alpha
        else:
            return None
        return Literal(same if isinstance(op, ast.Is) else not same)
    if isinstance(left, SeqVal) and isinstance(right, SeqVal) and isinstance(op, (ast.Eq, ast.NotEq)):
        same = _same_sizes(left, right)  # `if action.shape != q.shape:`
        return None if same is None else Literal(same == isinstance(op, ast.Eq))
    if isinstance(left, DimVal) and isinstance(right, DimVal):
        if isinstance(op, (ast.Eq, ast.NotEq)):
            if must_equal(left.dim, right.dim):
                return Literal(isinstance(op, ast.Eq))
            if must_differ(left.dim, right.dim):
                return Literal(isinstance(op, ast.NotEq))
            return None
        a, b = value(left.dim), value(right.dim)
        if type(op) in _ORDER and a is not None and b is not None:
            return Literal(_ORDER[type(op)](a, b))
        return None
    if type(op) in _ORDER and _number(left) is not None and _number(right) is not None:
        return Literal(_ORDER[type(op)](_number(left), _number(right)))  # `if cfg["mixup_alpha"] > 0:`
    if isinstance(left, Literal) and isinstance(right, Literal) and isinstance(op, (ast.Eq, ast.NotEq)):
        if isinstance(left.value, _CONSTS) and isinstance(right.value, _CONSTS):
            return Literal((left.value == right.value) == isinstance(op, ast.Eq))
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, SeqVal) and not right.names and right.items \
            and _constant(left) is not None and all(_constant(i) is not None for i in right.items):
        # `src.dtype in (torch.float32, torch.float64)`, `mode in ("sum", "mean")` with every side known
        found = _constant(left) in [_constant(i) for i in right.items]
        return Literal(found == isinstance(op, ast.In))
    return None


_CONSTS = (str, bool, type(None))


def _constant(v):
    """A known constant to test membership with: a str/bool/None literal (dtypes are `dtype:` strings), or a
    known int; wrapped so that 1 and True stay apart."""
    if isinstance(v, Literal) and isinstance(v.value, _CONSTS):
        return (type(v.value).__name__, v.value)
    if isinstance(v, DimVal) and isinstance(value(v.dim), int):
        return ("int", value(v.dim))
    return None


def _number(v):
    """A known Python number: a float literal or an int of known value."""
    if isinstance(v, Literal) and isinstance(v.value, float):
        return v.value
    return value(v.dim) if isinstance(v, DimVal) else None


def _same_sizes(left: SeqVal, right: SeqVal) -> Optional[bool]:
    """Whether two size tuples (`x.shape`, `(B, 1)`) are equal, when certain: another length, or a
    pair of sizes that must differ, settles it; only sizes (ints, unknown ints) are compared."""
    if left.names or right.names or not all(isinstance(v, DimVal) or v is None for v in left.items + right.items):
        return None
    if len(left.items) != len(right.items):
        return False
    pairs = list(zip(left.items, right.items))
    if any(a is not None and b is not None and must_differ(a.dim, b.dim) for a, b in pairs):
        return False
    if all(a is not None and b is not None and must_equal(a.dim, b.dim) for a, b in pairs):
        return True
    return None


def bool_op(op: ast.boolop, values: List[object]):
    """The value of `a and b` / `a or b` as Python computes it, when the operands' truth settles it."""
    for v in values[:-1]:
        t = truth(v)
        if t is None:
            return None
        if t is isinstance(op, ast.Or):
            return v  # `or` stops at the first true operand, `and` at the first false one
    return values[-1] if values else None
