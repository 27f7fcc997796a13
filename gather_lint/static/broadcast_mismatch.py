"""GL036 at any elementwise combination of two tensors: sizes that cannot broadcast raise.

Broadcasting aligns the right-most dims. A pair of aligned dims must be equal or hold a 1; `mask [F, H, W] *
t [B]` aligns B with W, and `target [B] - preds [B, Q]` aligns B with Q: torch raises 'The size of tensor a
must match the size of tensor b at non-singleton dimension d'. Reported when both shapes are known for
certain (no rank guessed from an unknown operand, no `...` prefix) and the two sizes are numbers the
analysis knows, different, and neither 1.
"""
from __future__ import annotations

from ..dims import value
from ..rules import gl036_broadcast_mismatch as rule
from .values import TensorVal


def clash(a, b):
    """(dim of the broadcast result, size of a, size of b) of the first aligned pair that cannot broadcast,
    or None when the two shapes may broadcast or are not known for certain."""
    if not isinstance(a, TensorVal) or not isinstance(b, TensorVal):
        return None
    sa, sb = a.shape, b.shape
    if sa is None or sb is None or sa.variadic or sb.variadic or sa.guessed or sb.guessed:
        return None
    n = max(len(sa.dims), len(sb.dims))
    left = (None,) * (n - len(sa.dims)) + tuple(sa.dims)
    right = (None,) * (n - len(sb.dims)) + tuple(sb.dims)
    for k, (x, y) in enumerate(zip(left, right)):
        vx, vy = value(x), value(y)
        if vx is not None and vy is not None and vx != vy and vx != 1 and vy != 1:
            return k, x, y
    return None


def check(interp, node, left_node, left, right_node, right, op: str) -> None:
    """`left <op> right`: flag sizes that cannot broadcast."""
    found = clash(left, right)
    if found is None:
        return
    k, x, y = found
    segment = interp.source.segment
    interp.flag(node, rule.check_pair(segment(node), op, segment(left_node), left.shape, segment(right_node),
                                      right.shape, k, x, y), None)
