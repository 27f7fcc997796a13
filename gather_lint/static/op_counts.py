"""GL035 at `topk(k, dim)` and `kthvalue(k, dim)`: a k larger than the dim it picks from raises.

The count is checked where both are known: k a number or a sized name (a config's patch size the driver set),
the size of the dim from the input's shape. Like op_dims, a rank guessed from a broadcast is not used, and an
input whose sizes are only names stays silent unless the names differ by a constant (`n + 1` over `n`).
"""
from __future__ import annotations

import ast

from ..dims import must_exceed, normalize_dim, value
from ..rules import gl035_k_exceeds_dim as rule
from . import tensor_ops as ops

_COUNTED = ("topk", "kthvalue")


def check(interp, node: ast.Call, name: str, owner, args: list, kwargs: dict, owner_node) -> None:
    """`owner.topk(k, dim)` / `torch.kthvalue(owner, k, dim)`: flag a k past the size of dim."""
    if name not in _COUNTED or not getattr(ops.certain_shape(owner), "dims", None):
        return
    k, dim = ops.count_and_dim(args, kwargs)
    axis = normalize_dim(dim, len(owner.shape.dims)) if dim is not None else None
    if k is None or axis is None:
        return
    size = owner.shape.dims[axis]
    if value(size) is None or not must_exceed(k, size):
        return  # a size the data decides (a name with no number) may well hold k
    interp.flag(node, rule.check_count(interp.source.segment(node), name, k, size, axis,
                                       interp.source.segment(owner_node), owner.shape), None)


def spelled_in(text: str) -> bool:
    """A part of a file that may hold a count to check: it calls topk or kthvalue."""
    return "topk(" in text or "kthvalue(" in text
