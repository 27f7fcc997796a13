"""Pairwise tables built on purpose: `(x ** 2).sum(1, keepdim=True) + (y ** 2).sum(1) - 2 * x @ y.T`.

The squared-distance idiom adds a column of row norms [N, 1] to a vector of norms [M] to get the
[N, M] table, then combines it with a matrix product of the same shape. The outer product is what
the author wants there, so GL006 says nothing about a broadcast whose result meets a matrix product
in the same expression. Read from the syntax, before the operands are evaluated: no extra walk.
"""
from __future__ import annotations

import ast

_PRODUCTS = frozenset({"matmul", "mm", "bmm", "einsum"})


def note(interp, node: ast.BinOp) -> None:
    """`a + b - x @ y.T`: the side next to the matrix product is a pairwise table being built."""
    for side, other in ((node.left, node.right), (node.right, node.left)):
        if isinstance(side, ast.BinOp) and _matrix_product(other):
            marks = getattr(interp, "_pairwise_nodes", None)
            if marks is None:
                marks = interp._pairwise_nodes = set()
            marks.add(id(side))


def deliberate(interp, node) -> bool:
    marks = getattr(interp, "_pairwise_nodes", None)
    return marks is not None and id(node) in marks


def _matrix_product(node) -> bool:
    """`x @ y.T`, `2 * torch.mm(x, y.t())`, `-x.matmul(y.T)`, `torch.einsum(...)`."""
    if isinstance(node, ast.UnaryOp):
        return _matrix_product(node.operand)
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.MatMult):
            return True
        if isinstance(node.op, (ast.Mult, ast.Div)):
            return _matrix_product(node.left) or _matrix_product(node.right)
        return False
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _PRODUCTS
