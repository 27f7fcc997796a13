"""GL036 at any elementwise combination of two tensors: sizes that cannot broadcast raise.

Broadcasting aligns the right-most dims. A pair of aligned dims must be equal or hold a 1; `mask [F, H, W] *
t [B]` aligns B with W, and `target [B] - preds [B, Q]` aligns B with Q: torch raises 'The size of tensor a
must match the size of tensor b at non-singleton dimension d'. Reported when both shapes are known for
certain (no rank guessed from an unknown operand, no `...` prefix) and the two sizes are numbers the
analysis knows, different, and neither 1. An in-place op (`x += y`, `x.mul_(y)`) raises as well where the
broadcast shape is not x's own: `x [N, 1] += y [N, D]`.
"""
from __future__ import annotations

from ..dims import broadcast, value
from ..rules import gl036_broadcast_mismatch as rule
from ..rules.gl006_missing_squeeze import in_place
from .tensor_ops import certain_shape


def clash(a, b):
    """(dim of the broadcast result, size of a, size of b) of the first aligned pair that cannot broadcast,
    or None when the two shapes may broadcast or are not known for certain."""
    sa, sb = certain_shape(a), certain_shape(b)
    if sa is None or sb is None:
        return None
    n = max(len(sa.dims), len(sb.dims))
    left = (None,) * (n - len(sa.dims)) + tuple(sa.dims)
    right = (None,) * (n - len(sb.dims)) + tuple(sb.dims)
    for k, (x, y) in enumerate(zip(left, right)):
        vx, vy = value(x), value(y)
        if vx is not None and vy is not None and vx != vy and vx != 1 and vy != 1:
            return k, x, y
    return None


def outgrows(written, other) -> bool:
    """An in-place write (`written += other`, `written.mul_(other)`) whose broadcast shape is not the written
    tensor's: `other` has more dims, or a size past 1 where `written` has 1. Torch cannot grow the tensor it
    writes into."""
    sw, so = certain_shape(written), certain_shape(other)
    if sw is None or so is None:
        return False
    if len(so.dims) > len(sw.dims):
        return True
    aligned = zip(sw.dims[len(sw.dims) - len(so.dims):], so.dims)
    return any(value(x) == 1 and value(y) is not None and value(y) != 1 for x, y in aligned)


def check(interp, node, left_node, left, right_node, right, op: str) -> None:
    """`left <op> right`: flag sizes that cannot broadcast, and an in-place op whose result outgrows `left`."""
    segment = interp.source.segment
    found = clash(left, right)
    if found is not None:
        k, x, y = found
        interp.flag(node, rule.check_pair(segment(node), op, segment(left_node), left.shape, segment(right_node),
                                          right.shape, k, x, y), None)
    elif in_place(op) and outgrows(left, right):
        interp.flag(node, rule.check_in_place(segment(node), segment(left_node), left.shape, segment(right_node),
                                              right.shape, broadcast(left.shape, right.shape)), None)
