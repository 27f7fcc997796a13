"""`mask.nonzero(as_tuple=True)` and `torch.where(mask)`: one vector of positions per dim of the mask,
all of one unknown length, int64 (`rows, cols = mask.nonzero(as_tuple=True)`, `torch.where(m)[1]`)."""
from __future__ import annotations

from ..dims import Shape
from .values import SeqVal, TensorVal


def per_dim(mask: TensorVal):
    """One vector of positions per dim of the mask; where its rank is unknown, a tuple of such vectors of
    unknown length (so `torch.stack(torch.where(m), 1)` is [N, ndim]: 2-d whatever the mask)."""
    shape = mask.shape if isinstance(mask, TensorVal) else None
    if shape is None or shape.variadic:
        from .tensor_ops import Repeated  # tensor_ops imports this module
        return Repeated(TensorVal(Shape((None,)), "int64")) if isinstance(mask, TensorVal) else None
    rank = max(len(shape.dims), 1)  # a 0-d mask gives one vector, as for 1-d
    return SeqVal(tuple(TensorVal(Shape((None,)), "int64") for _ in range(rank)))
