"""`mask.nonzero(as_tuple=True)` and `torch.where(mask)`: one vector of positions per dim of the mask,
all of one unknown length, int64 (`rows, cols = mask.nonzero(as_tuple=True)`, `torch.where(m)[1]`)."""
from __future__ import annotations

from typing import Optional

from ..dims import Shape
from .values import SeqVal, TensorVal


def per_dim(mask: TensorVal) -> Optional[SeqVal]:
    shape = mask.shape if isinstance(mask, TensorVal) else None
    if shape is None or shape.variadic:
        return None
    rank = max(len(shape.dims), 1)  # a 0-d mask gives one vector, as for 1-d
    return SeqVal(tuple(TensorVal(Shape((None,)), "int64") for _ in range(rank)))
