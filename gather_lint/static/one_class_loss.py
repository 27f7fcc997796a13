"""F.cross_entropy / F.nll_loss (and their nn modules) on an input with one class along dim 1.

A single-logit head (`nn.Linear(d, 1)`, a `[B, 1]` score) trained with cross-entropy: the log-softmax
over one class is exactly 0, so a target of 0 gives a loss of exactly 0 (nothing is learnt) and any
other target raises 'IndexError: Target 1 is out of bounds.' (a device-side assert on CUDA). Wrong
whatever the targets hold, so only the input's size is needed; probabilities as targets (float) are
left to the caller's check, like every other target check of the loss.
"""
from __future__ import annotations

from ..contract import ERROR, Violation
from ..dims import must_equal


def check(interp, node, dims, what: str, target_text: str) -> bool:
    """Flag a batched input whose class dim (1) has size 1; True when flagged."""
    if len(dims) < 2 or not must_equal(dims[1], 1):
        return False
    if getattr(interp, "ones_passed", False):
        return False  # the one class is a caller's size (a test run for dims 1, 4, 101): the data's, not the code's
    interp.flag(node, Violation(
        "GL011", ERROR,
        f"the input of {what} has 1 class along dim 1 (shape [{', '.join(map(str, dims))}]): its log-softmax "
        f"over one class is exactly 0, so a target `{target_text}` of 0 gives a loss of exactly 0 and any other "
        f"target raises 'Target 1 is out of bounds.' (a device-side assert on CUDA); for a binary label use "
        f"F.binary_cross_entropy_with_logits(logits.squeeze(1), target.float()), or give the output layer one "
        f"unit per class",
    ), None)
    return True
