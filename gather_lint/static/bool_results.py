"""Ops whose result is a bool tensor whatever their operands: comparisons and predicates.

`x > 0` already gives a bool mask (tensor_ops.binary); the method and function spellings of the same
test (`x.gt(0)`, `torch.eq(a, b)`, `x.isnan()`, `torch.isin(ids, stop)`) gave an unknown dtype, so a
mask that reached a gather's index slot went unchecked (GL008: gather/scatter need int64 or int32).
"""
from __future__ import annotations

from typing import Optional

from . import tensor_ops as ops
from .values import TensorVal

# element-wise comparisons of two operands (the second may be a number): the shapes broadcast
COMPARISONS = {
    "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
    "greater": ">", "less": "<", "greater_equal": ">=", "less_equal": "<=", "not_equal": "!=",
    "logical_and": "==", "logical_or": "==", "logical_xor": "==",
}
# one-operand predicates: the result has the operand's shape
PREDICATES = {"isnan", "isinf", "isfinite", "isposinf", "isneginf", "isreal", "logical_not", "signbit"}


def method(name: str, owner: Optional[TensorVal], args: list, kwargs: dict) -> Optional[TensorVal]:
    """`owner.<name>(...)` when name is a comparison or predicate; owner None: a tensor of unknown shape."""
    owner = owner if owner is not None else TensorVal()
    if name in PREDICATES and not args:
        return TensorVal(owner.shape, "bool")
    if name in COMPARISONS and len(args) == 1 and not kwargs:
        compared = ops.binary(owner, args[0], COMPARISONS[name])
        return TensorVal(compared.shape if compared is not None else None, "bool")
    if name == "isin" and args:  # ids.isin(stop_ids): one answer per element of ids
        return TensorVal(owner.shape, "bool")
    return None


def function(name: str, args: list, kwargs: dict) -> Optional[TensorVal]:
    """`torch.<name>(a, ...)`, the first operand a tensor, or a value the analysis does not know: the torch
    spelling takes tensors only, and `torch.logical_or(force_drop, rand_drop)` is a bool mask whatever
    the first operand is (a known non-tensor, a number or a list, gives None)."""
    if not args or not (isinstance(args[0], TensorVal) or args[0] is None):
        return None
    return method(name, args[0], list(args[1:]), kwargs)
