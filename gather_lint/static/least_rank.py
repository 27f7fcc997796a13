"""The fewest dims an expression's value can have, read from the op alone, with no input shape known.

`torch.stack([a, b], 2)` has at least three dims whatever a and b are: a shape comment that gives it
two (`# shape [n_gts, n_predictions]`, the inputs' shape) describes something else and is not a fact.
"""
from __future__ import annotations

import ast
from typing import Optional

from .tree_walk import int_literal

# ops whose `dim` must be a valid axis of the result: stack and unsqueeze add that axis, cat keeps it
_NEW_AXIS = frozenset({"stack", "unsqueeze"})
_SAME_AXIS = frozenset({"cat", "concat", "concatenate"})


def least_rank(node: ast.expr) -> int:
    """At least how many dims `node`'s tensor has (0 when the op says nothing)."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return 0
    name = node.func.attr
    if name not in _NEW_AXIS and name not in _SAME_AXIS:
        return 0
    is_method = name == "unsqueeze"  # x.unsqueeze(d): d is the first argument; torch.stack(xs, d): the second
    dim = _dim_argument(node, 0 if is_method else 1)
    if dim is None:
        return 0
    return dim + 1 if dim >= 0 else -dim


def _dim_argument(call: ast.Call, position: int) -> Optional[int]:
    for keyword in call.keywords:
        if keyword.arg in ("dim", "axis"):
            return int_literal(keyword.value)
    if len(call.args) > position:
        return int_literal(call.args[position])
    return None

