"""GL001 at an unpacking: `b, c, t, h, w = x.shape` with x of another rank.

Python raises `ValueError: not enough values to unpack (expected 5, got 4)` (or `too many values to
unpack`). Code written for video `(B, C, T, H, W)` and handed images `(B, C, H, W)`, or for a batch and
handed one sample, fails here first: a report at the unpacking names the line that fails, where a later
subscript of the same tensor (subscript_rank.py) would only show a symptom.

Only a rank stated directly (a constructor, an annotation, a shape comment, an earlier unpacking) counts,
not a docstring's (docstrings often describe one call path among several, or the library a port came
from) nor an op's result, which keeps no record of where its input's rank came from; only `x.shape` /
`x.size()` of a name unpacked whole, without a starred name, and only outside an `if` whose test the
analysis could not decide: code there may be the path for inputs of the other rank (`if video: b, c, t,
h, w = x.shape`).
"""
from __future__ import annotations

import ast
from typing import Optional

from ..rules import gl001_rank_mismatch as rule
from .subscript_rank import told_in_prose
from .values import SeqVal, TensorVal


def check(interp, target: ast.Tuple, result, value_node) -> None:
    """`target = value_node`, where the value evaluated to `result` (the sizes, for a known shape)."""
    owner_name = shape_owner(value_node)
    if interp.undecided_branches or owner_name is None or not isinstance(result, SeqVal) or len(result.items) == len(target.elts):
        return
    if any(isinstance(e, ast.Starred) for e in target.elts):
        return
    owner = interp.env.get(owner_name)
    if not isinstance(owner, TensorVal) or owner.shape is None or owner.shape.variadic or not owner.origin \
            or told_in_prose(owner):
        return  # an op's result keeps no record of where its input's rank came from (a docstring, maybe)
    if len(owner.shape.dims) != len(result.items):
        return  # the sizes are not the tensor's own (a value the analysis holds for another reason)
    interp.flag(target, rule.check_unpacked_shape(
        interp.source.segment(target, 40), interp.source.segment(value_node), owner_name, owner.shape,
        len(target.elts)), None)


def shape_owner(node) -> Optional[str]:
    """`x` of `x.shape` or `x.size()` (the value of an unpacking that gives one size per dim)."""
    if isinstance(node, ast.Attribute) and node.attr == "shape" and isinstance(node.value, ast.Name):
        return node.value.id
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "size" \
            and not node.args and not node.keywords and isinstance(node.func.value, ast.Name):
        return node.func.value.id
    return None
