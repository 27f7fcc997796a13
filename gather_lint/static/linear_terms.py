"""Expressions read as sums of terms, to tell how far apart two of them are whatever their parts hold.

`s + k + 1` minus `s + 1` is `k`: the terms are the code's own sub-expressions (a name, `x.size(1)`,
`i * stride`), compared by their text, each with a count, and the numbers written out are added up.
"""
from __future__ import annotations

import ast
from collections import Counter
from typing import Optional, Tuple


def _terms(node: ast.expr, sign: int, into: Counter) -> Optional[int]:
    """Add node's terms to `into` (with `sign`), and return its number part; None when it is no sum."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        left = _terms(node.left, sign, into)
        right = _terms(node.right, sign if isinstance(node.op, ast.Add) else -sign, into)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _terms(node.operand, -sign, into)
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return sign * node.value
    if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.BinOp)):
        into[ast.dump(node)] += sign
        return 0
    return None


def difference(upper: ast.expr, lower: ast.expr) -> Optional[Tuple[Optional[ast.expr], int]]:
    """(the one term left, the number) of `upper - lower`, the term None when only a number is left; None when
    more than one term is left, or one with a count other than 1."""
    counts: Counter = Counter()
    high = _terms(upper, 1, counts)
    low = _terms(lower, -1, counts)
    if high is None or low is None:
        return None
    left = {term: n for term, n in counts.items() if n}
    if not left:
        return None, high + low
    if len(left) != 1 or next(iter(left.values())) != 1:
        return None
    dumped = next(iter(left))
    node = next(n for tree in (upper, lower) for n in ast.walk(tree) if isinstance(n, ast.expr) and ast.dump(n) == dumped)
    return node, high + low
