"""Index values through a symmetric matrix made from one strict triangle: `a = torch.triu(labels, 1)`
then `a + a.transpose(1, 2)` (graph generators draw each bond once and mirror it). A strict triangle and
its transpose never overlap off zero, so the sum holds the same values as `labels`: bond types in
[0, n) stay in [0, n) and the one-hot or scatter that follows is checked against them.
"""
from __future__ import annotations

import ast
from typing import Optional

from .last_assignment import last_assigned
from .values import TensorVal

_TRANSPOSES = {"transpose", "t", "permute"}


def mirrored_sum(interp, node: ast.BinOp, left, right) -> Optional[TensorVal]:
    """`x + x.T` of a strict triangle x with ids: x's values; None when not that."""
    if not (isinstance(left, TensorVal) and isinstance(right, TensorVal)) or left.domain is None \
            or left.domain != right.domain:
        return None  # the cheap test first: both sides carry the same ids
    for plain, mirrored in ((node.left, node.right), (node.right, node.left)):
        if isinstance(plain, ast.Name) and _transpose_of(mirrored, plain.id) and _strict_triangle(interp, plain):
            return left.with_(shift=None, filled=None, kept_singleton=None, kept_at=None)
    return None


def _transpose_of(node, name: str) -> bool:
    """`name.transpose(..)`, `name.t()`, `name.T`, `name.mT`, `name.permute(..)`, `torch.transpose(name, ..)`."""
    if isinstance(node, ast.Attribute) and node.attr in ("T", "mT"):
        return isinstance(node.value, ast.Name) and node.value.id == name
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) or node.func.attr not in _TRANSPOSES:
        return False
    owner = node.func.value
    if isinstance(owner, ast.Name) and owner.id == name:
        return True
    return isinstance(owner, ast.Name) and owner.id == "torch" and bool(node.args) \
        and isinstance(node.args[0], ast.Name) and node.args[0].id == name


def _strict_triangle(interp, name: ast.Name) -> bool:
    """`name` was last assigned `torch.triu(y, k)` / `y.triu(k)` with k >= 1 (or tril with k <= -1)."""
    made = last_assigned(interp, name.id, name.lineno)
    if not isinstance(made, ast.Call) or not isinstance(made.func, ast.Attribute) or made.func.attr not in ("triu", "tril"):
        return False
    functional = isinstance(made.func.value, ast.Name) and made.func.value.id == "torch"
    args = made.args[1:] if functional else made.args
    offset = args[0] if args else next((k.value for k in made.keywords if k.arg == "diagonal"), None)
    if isinstance(offset, ast.UnaryOp) and isinstance(offset.op, ast.USub) and isinstance(offset.operand, ast.Constant):
        k = -offset.operand.value
    elif isinstance(offset, ast.Constant):
        k = offset.value
    else:
        return False
    return isinstance(k, int) and (k >= 1 if made.func.attr == "triu" else k <= -1)
