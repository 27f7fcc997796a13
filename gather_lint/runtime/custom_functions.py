"""A family call made in the forward of a custom autograd Function: torch records no graph there and the
class's own backward answers for the gradient, so a src longer than its index, cropped to the index's leading
rows, is the forward's design (GL009), as the static half reads it (static/autograd_ctx.py)."""
from __future__ import annotations

import sys

import torch

from ..rules import gl009_scatter_writes_slice as gl009

_DEPTH = 16  # frames looked up from the call: the wrappers, then the user's forward


def own_backward(violations: list) -> list:
    if not any(gl009.leading_block(v) for v in violations) or not _in_custom_forward():
        return violations
    return [v for v in violations if not gl009.leading_block(v)]


def _in_custom_forward() -> bool:
    """Whether the nearest `forward` up the stack is a custom Function's: its first argument is the ctx torch
    passes (a FunctionCtx)."""
    frame = sys._getframe(1)
    for _ in range(_DEPTH):
        if frame is None:
            return False
        code = frame.f_code
        if code.co_name == "forward" and code.co_argcount:
            return isinstance(frame.f_locals.get(code.co_varnames[0]), torch.autograd.function.FunctionCtx)
        frame = frame.f_back
    return False
