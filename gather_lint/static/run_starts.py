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

from .values import TensorVal


def compared(node: ast.Compare, result):
    """`x[1:] != x[:-1]` (either order): a mask true at each run's start but the first."""
    if not isinstance(result, TensorVal) or len(node.ops) != 1 or not isinstance(node.ops[0], ast.NotEq):
        return result
    left, right = node.left, node.comparators[0]
    if not (isinstance(left, ast.Subscript) and isinstance(right, ast.Subscript)) \
            or ast.dump(left.value) != ast.dump(right.value):
        return result
    ends = {_slice_end(left.slice), _slice_end(right.slice)}
    return result.with_(run_starts="after_first") if ends == {"drop_first", "drop_last"} else result


def _slice_end(key) -> str:
    """`1:` drops the first entry, `:-1` the last; anything else is neither."""
    if not isinstance(key, ast.Slice) or key.step is not None:
        return ""
    lower = key.lower.value if isinstance(key.lower, ast.Constant) else None
    upper = key.upper
    if lower == 1 and upper is None:
        return "drop_first"
    if key.lower is None and isinstance(upper, ast.UnaryOp) and isinstance(upper.op, ast.USub) \
            and isinstance(upper.operand, ast.Constant) and upper.operand.value == 1:
        return "drop_last"
    return ""


def written(owner: TensorVal, target: ast.Subscript, result) -> TensorVal:
    """`first[1:] = x[1:] != x[:-1]` into a tensor of ones: true at the first entry and at each run's start."""
    if isinstance(result, TensorVal) and result.run_starts == "after_first" and owner.filled == "ones" \
            and _slice_end(target.slice) == "drop_first":
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
