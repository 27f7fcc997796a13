"""GL006 at an element-wise loss: a prediction [N] against a target [N, 1] (or the reverse), whatever made
the column. `F.mse_loss(pred, target)` (and l1, smooth_l1, huber, kl_div, poisson_nll, their nn modules)
broadcasts the two into [N, N], every prediction against every target, with only torch's size warning
(none at all for kl_div and poisson_nll_loss). Unlike arithmetic, where `a - b[:, None]` may be a wanted
pairwise table, a loss compares each input with its own target: differing shapes are never the intent.

Reported only when both shapes are fully known, the ranks are 1 and 2 with a trailing literal 1, and the
row dims are certainly the same (one symbol, or the same integer above 1). A column some rule already
follows (a gather's kept dim, a width-1 head) is left to that rule.
"""
from __future__ import annotations

from ..dims import Shape, must_equal, value
from ..rules import gl006_missing_squeeze as rule
from .values import TensorVal


def check(interp, node, left_node, left, right_node, right, what: str) -> None:
    """`what` names the call ("F.mse_loss()"); only element-wise losses are looked at."""
    if not what.startswith("F.") or "loss" not in what:
        return
    if not (isinstance(left, TensorVal) and isinstance(right, TensorVal)):
        return
    if left.kept_singleton is not None or right.kept_singleton is not None:
        return  # a marked column: its own rule reports it, with its origin
    for column, column_node, vector, vector_node in ((left, left_node, right, right_node),
                                                     (right, right_node, left, left_node)):
        rows = _column_of_vector(column.shape, vector.shape)
        if rows is not None:
            interp.flag(node, rule.check_loss_column(
                column.shape, vector.shape, Shape((rows, rows)), what, interp.source.segment(column_node),
                interp.source.segment(vector_node)), None)
            return


def _column_of_vector(column, vector):
    """N when `column` is [N, 1] and `vector` is [N], N certainly the same dim and not known to be 1."""
    if column is None or vector is None or column.variadic or vector.variadic:
        return None
    if len(column.dims) != 2 or len(vector.dims) != 1 or value(column.dims[1]) != 1:
        return None
    rows, other = column.dims[0], vector.dims[0]
    if not must_equal(rows, other) or value(rows) == 1:
        return None
    return rows
