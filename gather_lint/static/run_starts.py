"""Masks of the first entry of each run of equal neighbours, and what they pick.

`x[1:] != x[:-1]` is true where an entry differs from the one before it: the start of a new run. With the
first entry set too (`first = torch.ones_like(x); first[1:] = x[1:] != x[:-1]`), the mask picks one entry per
run, as `torch.unique_consecutive` does. Values copied by `repeat_interleave` (`ridx` of rays, each ray's
samples together) lie in runs, one per value, so the picks are distinct: a write at them keeps every value
(GL013 asks whether positions repeat).
"""
from __future__ import annotations

import ast

from dataclasses import replace

from .tensor_ops import SliceVal
from .values import TensorVal


def compared(node: ast.Compare, left, right, result):
    """`x[1:] != x[:-1]` (either order): a mask true at each run's start but the first. The two sides are the
    halves of one tensor shifted by one along the same dim (TensorVal.shift, as the next-token shift reads it)."""
    if not (isinstance(result, TensorVal) and isinstance(left, TensorVal) and isinstance(right, TensorVal)
            and len(node.ops) == 1 and isinstance(node.ops[0], ast.NotEq)
            and left.shift is not None and right.shift is not None and left.shift[0] == right.shift[0]
            and {left.shift[1], right.shift[1]} == {"drop_first", "drop_last"}):
        return result
    sides = (node.left, node.comparators[0])
    if not all(isinstance(side, ast.Subscript) for side in sides) or ast.dump(sides[0].value) != ast.dump(sides[1].value):
        return result
    return result.with_(run_starts="after_first")


def written(owner: TensorVal, key, result) -> TensorVal:
    """`first[1:] = x[1:] != x[:-1]` into a tensor of ones: true at the first entry and at each run's start."""
    if isinstance(result, TensorVal) and result.run_starts == "after_first" and owner.filled == "ones" \
            and isinstance(key, SliceVal) and key.one_end() == "drop_first":
        return owner.with_(run_starts="each")
    return owner


def picked(values, key, result):
    """`x[mask]` with the mask of each run's start: values copied by repeat_interleave, one per run, are distinct."""
    if not (isinstance(key, TensorVal) and key.run_starts == "each" and isinstance(result, TensorVal)
            and result.domain is not None and result.domain.repeats):
        return result
    from .repeated_indices import copied, copied_by

    if not (copied(result) and copied_by(result) == "repeat_interleave"):
        return result
    origin = f"the first of each run of {result.domain.origin}"
    return result.with_(domain=replace(result.domain, repeats=False, origin=origin))
