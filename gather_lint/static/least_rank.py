"""The fewest dims an expression's value can have, read from the op alone, with no input shape known.

`torch.stack([a, b], 2)` has at least three dims whatever a and b are, and so has `torch.tile(x, [1, n, 1])`:
a shape comment that gives it two (`# shape [n_gts, n_predictions]`, the inputs' shape, or a stale one)
describes something else and is not a fact.
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
    if name in _SIZED:
        return _listed_sizes(node, _SIZED[name])
    if name not in _NEW_AXIS and name not in _SAME_AXIS:
        return 0
    is_method = name == "unsqueeze"  # x.unsqueeze(d): d is the first argument; torch.stack(xs, d): the second
    dim = _dim_argument(node, 0 if is_method else 1)
    if dim is None:
        return 0
    return dim + 1 if dim >= 0 else -dim


# ops whose result has (at least) one dim per size listed, from this argument on: `torch.tile(x, [1, n, 1])`,
# `x.repeat(1, n, 1)`, `x.expand(b, -1, -1)`, `x.view(b, t, -1)`
_SIZED = {"tile": 1, "repeat": 0, "expand": 0, "view": 0, "reshape": 0}


def exact_rank(node: ast.expr) -> Optional[int]:
    """How many dims `node`'s tensor has, when the op lists one size per dim: `x.repeat(1, d)`, `x.view(b, t, -1)`,
    `x.expand(b, -1)`, `x.reshape(...)` (tile makes at least as many: left out)."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) or node.func.attr not in _EXACT:
        return None
    listed = _listed_sizes(node, _SIZED[node.func.attr])
    return listed or None


_EXACT = frozenset({"repeat", "expand", "view", "reshape"})


def _listed_sizes(call: ast.Call, position: int) -> int:
    if isinstance(call.func.value, ast.Name) and call.func.value.id == "torch" or \
            isinstance(call.func.value, ast.Attribute) and call.func.value.attr == "torch":
        position += 0 if call.func.attr == "tile" else 1  # torch.reshape(x, shape): the sizes follow the tensor
    elif call.func.attr == "tile":
        position = 0  # x.tile(reps)
    args = call.args[position:]
    if any(isinstance(a, ast.Starred) for a in args) or call.keywords and not args:
        return 0
    if len(args) == 1 and isinstance(args[0], (ast.List, ast.Tuple)):
        items = args[0].elts
        return 0 if any(isinstance(a, ast.Starred) for a in items) else len(items)
    if len(args) == 1 and not isinstance(args[0], ast.Constant):
        return 0  # `x.view(shape)`, `x.view(torch.float16)`: a name of unknown length, or a dtype
    return len(args)


def _dim_argument(call: ast.Call, position: int) -> Optional[int]:
    for keyword in call.keywords:
        if keyword.arg in ("dim", "axis"):
            return int_literal(keyword.value)
    if len(call.args) > position:
        return int_literal(call.args[position])
    return None

