"""Ids made as a constant: `torch.full(size, c)`, `x.new_full(size, c)`, `torch.full_like(x, c)`, and
the ones of `torch.ones_like(ids)` / `ids.new_ones(...)` / `torch.ones(..., dtype=torch.long)` (token type
ids of 1 for a model with a single token type).

Every element is c, so c is among the values of the tensor and of any part of it: a fill equal to a
table's size (`torch.full((B, L), vocab_size)`, a pad or mask id one past the vocabulary) reads a row
the table does not have. Given as a value range of size c + 1, which the index checks compare with
the dim or table the ids reach. Negative fills are padding (interp_helpers._with_sentinel).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from ..contract import Domain
from ..dims import Sym, dim_text, value
from .values import DimVal, TensorVal

_NOT_IDS = ("bool", "float16", "bfloat16", "float32", "float64")


def filled(made, fill, line: int) -> Optional[TensorVal]:
    """`made` (a full tensor) with the fill value among its values, when that is a positive integer."""
    if not isinstance(made, TensorVal) or not isinstance(fill, DimVal) or fill.dim is None or made.dtype in _NOT_IDS:
        return made
    size = value(fill.dim)
    if size is not None and size <= 0:
        return made
    if size is None and not isinstance(fill.dim, Sym):
        return made
    origin = f"values all equal to {dim_text(fill.dim)} (the fill at line {line})"
    base = made.domain or Domain()
    return made.with_(domain=replace(base, size=_one_more(fill.dim), origin=origin, category=False))


def ones(func: str, made, line: int):
    """The result of ones / ones_like / new_ones: every value is 1, when its dtype is an integer one."""
    if func not in ("ones", "ones_like", "new_ones") or not isinstance(made, TensorVal) or made.dtype is None:
        return made
    return filled(made, DimVal(1), line)


def _one_more(d):
    size = value(d)
    if isinstance(d, int):
        return d + 1
    return Sym(f"{dim_text(d)} + 1", size=size + 1 if size is not None else None)
