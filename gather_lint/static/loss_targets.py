"""GL006 in an element-wise loss: a gathered [B, 1] against a target [B, A] that was never reduced.

`q = critic(obs).gather(1, action.unsqueeze(-1))` holds one value per sample; a TD target built as
`probs * (min_q - alpha * logp)` without its `.sum(-1, keepdim=True)` is [B, A]. `F.mse_loss(q, target)`
then broadcasts q over the A entries and averages over [B, A], with only torch's size UserWarning
(mse_loss, l1_loss, smooth_l1_loss, huber_loss; kl_div and poisson_nll_loss say nothing). The static
twin of runtime/broadcast_checks.loss_target; reported at the loss, since the fix (the reduction) goes
where the target is built, not on the gather.
"""
from __future__ import annotations

import ast

from ..dims import must_differ, value
from ..rules import gl006_missing_squeeze as rule
from .head_columns import HeadMark
from .values import TensorVal


def check(interp, node, left_node, left, right_node, right, what: str) -> None:
    """`what` names the call ("F.mse_loss()"); only elementwise losses are looked at."""
    if not what.startswith("F.") or "loss" not in what:
        return
    for gathered, gathered_node, target, target_node in ((left, left_node, right, right_node),
                                                         (right, right_node, left, left_node)):
        axis = _kept_by_gather(gathered)
        if axis is None or not isinstance(target, TensorVal) or target.kept_singleton is not None:
            continue
        g, t = gathered.shape, target.shape
        if t is None or t.variadic or len(t.dims) != len(g.dims):
            continue
        wider = value(t.dims[axis])
        if wider is None or wider <= 1 or any(must_differ(a, b) for k, (a, b) in enumerate(zip(g.dims, t.dims)) if k != axis):
            continue
        interp.flag(node, rule.check_loss_target(g, axis, t, what, interp.source.segment(gathered_node),
                                                 interp.source.segment(target_node)), None)
        return


def _kept_by_gather(t):
    """The axis of the singleton a gather (not a lookup's column key) left in `t`, with its shape known."""
    if not isinstance(t, TensorVal) or t.kept_singleton is None or isinstance(t.kept_at, (ast.Subscript, HeadMark)):
        return None
    s = t.shape
    if s is None or s.variadic or not 0 <= t.kept_singleton < len(s.dims) or s.dims[t.kept_singleton] != 1:
        return None
    return t.kept_singleton
