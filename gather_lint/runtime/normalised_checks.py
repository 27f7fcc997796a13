"""GL018 at run time: labels picked from log-probabilities normalised along another dim.

`log_softmax` and `softmax` results (an nn.Softmax layer's too) are marked with the dim they were
normalised over and the function (provenance.NORMALISED, weak references only). A gather of one entry per row along another dim whose picks differ along
the normalised dim reads each value from another distribution (a share of the batch, not of the
classes); `F.nll_loss` reads dim 1 as the classes. Picking whole distributions (an index constant
along the normalised dim, e.g. one time step's row of vocabulary log-probs) is left alone.
"""
from __future__ import annotations

from typing import Optional

import torch

from ..contract import Violation
from ..dims import Shape
from ..rules import gl002_dim_out_of_range as dim_rule
from ..rules import gl018_normalised_other_dim as rule
from .provenance import NORMALISED


def mark(args, kwargs, result, function: str) -> None:
    """Remember the dim a log_softmax / softmax (input, dim) call normalised `result` over."""
    dim = args[1] if len(args) > 1 else kwargs.get("dim")
    if isinstance(dim, int) and isinstance(result, torch.Tensor) and result.dim() >= 2 and -result.dim() <= dim < result.dim():
        NORMALISED.put(result, (dim % result.dim(), function))


def gathered(inp, axis: int, index) -> Optional[Violation]:
    """gather(inp, axis, index) on marked (log-)probs: one pick per row, differing along the normalised dim."""
    normalised, function = NORMALISED.get(inp) or (None, None) if isinstance(inp, torch.Tensor) else (None, None)
    if normalised is None or normalised == axis or not isinstance(index, torch.Tensor) or index.dim() != inp.dim():
        return None
    if index.shape[axis] != 1 or index.shape[normalised] < 2 or index.shape[normalised] != inp.shape[normalised]:
        return None
    if index.stride(normalised) == 0 or index.is_meta or torch.compiler.is_compiling():
        return None  # expanded along the normalised dim: whole distributions are picked
    first = index.narrow(normalised, 0, 1)
    if not bool((index != first).any()):
        return None  # the same pick in every distribution: a row of it, not labels
    what = "log_probs" if function == "log_softmax" else "probs"
    return rule.check_normalised(what, function, normalised, axis, "index", implicit=False)


def loss_input(inp) -> Optional[Violation]:
    """F.nll_loss(input, target) reads dim 1 of input (log-probs) as the classes."""
    normalised, function = NORMALISED.get(inp) or (None, None) if isinstance(inp, torch.Tensor) else (None, None)
    if normalised is None or function != "log_softmax" or normalised == 1 or inp.dim() < 2 or inp.shape[normalised] < 2:
        return None
    return rule.check_normalised("input", "log_softmax", normalised, 1, "target", implicit=False)


_DIM_POSITION = {"softmax": 1, "log_softmax": 1, "gumbel_softmax": 4}  # where dim sits among the arguments


def rejected_dim(function: str, args, kwargs) -> Optional[Violation]:
    """GL002 for a softmax / log_softmax / gumbel_softmax that torch rejected for its dim: the dim is out
    of range, and when it equals one of the input's sizes, a size was passed where its dim was meant."""
    position = _DIM_POSITION[function]
    x = args[0] if args else kwargs.get("input", kwargs.get("logits"))
    dim = args[position] if len(args) > position else kwargs.get("dim")
    if not isinstance(x, torch.Tensor) or not isinstance(dim, int) or -max(x.dim(), 1) <= dim < max(x.dim(), 1):
        return None
    shape = tuple(x.shape)
    size_axis = next((axis for axis, size in enumerate(shape) if size == dim), None)
    return dim_rule.check_normaliser_dim("the call", function, "", Shape(shape), "dim", dim, size_axis)
