"""The source shape an index_add_ / index_copy_ needs, added to a rank or size finding about its source.

The shared rule says which dim of source disagrees with self (GL003) or that the ranks differ (GL001);
with the real tensors at hand the runtime can also say what source must be: the index's length along
`dim`, self's sizes elsewhere.
"""
from __future__ import annotations

from dataclasses import replace
from typing import List

import torch

from ..ops import Op

_WRITES_SOURCE = ("index_add", "index_copy")


def annotated(op: Op, bound: dict, found) -> List:
    found = list(found)
    if op.name not in _WRITES_SOURCE or not found:
        return found
    inp, index, source, dim = bound.get("input"), bound.get("index"), bound.get("source"), bound.get("dim")
    if not all(isinstance(t, torch.Tensor) for t in (inp, index, source)) or type(dim) is not int:
        return found
    if index.dim() != 1 or inp.dim() == 0 or not -inp.dim() <= dim < inp.dim():
        return found
    axis = dim % inp.dim()
    needed = tuple(int(n) for n in inp.shape[:axis]) + (index.numel(),) + tuple(int(n) for n in inp.shape[axis + 1:])
    if tuple(source.shape) == needed:
        return found
    shown = "[" + ", ".join(map(str, needed)) + "]"
    told = (f"; source must be {shown}: the index's {index.numel()} entries along dim {dim}, "
            f"self's sizes elsewhere")
    return [replace(v, message=v.message + told) if v.code in ("GL001", "GL003") and "source" in v.message else v
            for v in found]
