"""GL037 at `view`/`reshape`: sizes whose product is not the number of elements raise.

`x.view(B, N, 1, 1)` of an x holding 2 * N elements, or `x.reshape(1, 1, 3)` of a channels-first [B, C, N]
cloud: torch raises "shape '[2, 5, 1, 1]' is invalid for input of size 20". Checked where every size of the input
and of the asked shape is a number the analysis knows (one of them may be -1: then the rest must divide the
count), with no rank guessed from an unknown operand.
"""
from __future__ import annotations

import ast

from ..dims import product, value
from ..rules import gl037_view_size_mismatch as rule
from .tensor_ops import _sizes, as_dim, certain_shape
from .values import DimVal

_VIEWS = ("view", "reshape")


def mismatch(owner, args: list):
    """(the sizes asked, the element count) when the asked shape cannot hold owner's elements, else None."""
    shape = certain_shape(owner)
    sizes = _sizes(args)
    if shape is None or not sizes or not all(isinstance(v, DimVal) for v in sizes):
        return None
    total = value(product(shape.dims))
    asked = [value(as_dim(v)) for v in sizes]
    if not total or any(not isinstance(d, int) or d < -1 for d in asked) or asked.count(-1) > 1:
        return None
    rest = 1
    for d in asked:
        rest *= d if d != -1 else 1
    if rest == 0 or (total % rest == 0 if -1 in asked else rest == total):
        return None
    return asked, total


def check(interp, node: ast.Call, name: str, owner, args: list, owner_node) -> None:
    """`owner.view(*args)` / `torch.reshape(owner, shape)`: flag a shape that cannot hold owner's elements."""
    if name not in _VIEWS:
        return
    found = mismatch(owner, args)
    if found is not None:
        asked, total = found
        interp.flag(node, rule.check_view(interp.source.segment(node), name, interp.source.segment(owner_node),
                                          owner.shape, asked, total), None)
