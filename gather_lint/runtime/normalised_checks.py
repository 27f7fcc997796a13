"""GL018 at run time: labels picked from log-probabilities normalised along another dim.

`log_softmax` results are marked with the dim they were normalised over (provenance.NORMALISED,
weak references only). A gather of one entry per row along another dim whose picks differ along
the normalised dim reads each value from another distribution (a share of the batch, not of the
classes); `F.nll_loss` reads dim 1 as the classes. Picking whole distributions (an index constant
along the normalised dim, e.g. one time step's row of vocabulary log-probs) is left alone.
"""
from __future__ import annotations

from typing import Optional

import torch

from ..contract import Violation
from ..rules import gl018_normalised_other_dim as rule
from .provenance import NORMALISED


def mark(args, kwargs, result) -> None:
    """Remember the dim a log_softmax(input, dim) call normalised `result` over."""
    dim = args[1] if len(args) > 1 else kwargs.get("dim")
    if isinstance(dim, int) and isinstance(result, torch.Tensor) and result.dim() >= 2 and -result.dim() <= dim < result.dim():
        NORMALISED.put(result, dim % result.dim())


def gathered(inp, axis: int, index) -> Optional[Violation]:
    """gather(inp, axis, index) on marked log-probs: one pick per row, differing along the normalised dim."""
    normalised = NORMALISED.get(inp) if isinstance(inp, torch.Tensor) else None
    if normalised is None or normalised == axis or not isinstance(index, torch.Tensor) or index.dim() != inp.dim():
        return None
    if index.shape[axis] != 1 or index.shape[normalised] < 2 or index.shape[normalised] != inp.shape[normalised]:
        return None
    if index.stride(normalised) == 0 or index.is_meta or torch.compiler.is_compiling():
        return None  # expanded along the normalised dim: whole distributions are picked
    first = index.narrow(normalised, 0, 1)
    if not bool((index != first).any()):
        return None  # the same pick in every distribution: a row of it, not labels
    return rule.check_normalised("log_probs", "log_softmax", normalised, axis, "index", implicit=False)


def loss_input(inp) -> Optional[Violation]:
    """F.nll_loss(input, target) reads dim 1 of input as the classes."""
    normalised = NORMALISED.get(inp) if isinstance(inp, torch.Tensor) else None
    if normalised is None or normalised == 1 or inp.dim() < 2 or inp.shape[normalised] < 2:
        return None
    return rule.check_normalised("input", "log_softmax", normalised, 1, "target", implicit=False)
