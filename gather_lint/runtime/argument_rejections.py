"""GL033 at run time: why torch's argument parser refused a family call (a TypeError), or why the op refused the
reduction it was named (a RuntimeError), in the words of the static rule, pointing at the user's line. Asked only
once torch has raised, so a valid call pays nothing."""
from __future__ import annotations

import numbers
from typing import Optional

import torch

from ..ops import Op
from ..rules import gl033_refused_arguments as rule
from ..signatures import Kind, refusal, refused_reduction

try:
    import numpy
except ImportError:  # numpy is optional for torch
    numpy = None


def kind_of(value) -> Optional[Kind]:
    """What torch's parser sees in one argument."""
    if isinstance(value, torch.Tensor):
        return Kind("tensor", value.dim(), not (value.dtype.is_floating_point or value.dtype.is_complex))
    if isinstance(value, bool) or (numpy is not None and isinstance(value, numpy.bool_)):
        return Kind("bool")
    if isinstance(value, numbers.Integral):
        return Kind("int")
    if isinstance(value, numbers.Real):
        return Kind("float")
    if isinstance(value, str):
        return Kind("str")
    if value is None:
        return Kind("none")
    if isinstance(value, list):
        return Kind("list")
    if isinstance(value, tuple):
        return Kind("tuple")
    if numpy is not None and isinstance(value, numpy.ndarray):
        return Kind("ndarray")
    return None


def rejected(op: Op, spelling: str, args, kwargs) -> Optional[object]:
    """The GL033 violation for a call torch refused with a TypeError; None when the signature takes it (the
    TypeError came from elsewhere)."""
    method = spelling.startswith("Tensor.")
    positional = list(args[1:] if method else args)
    if method and not args:
        return None
    found = refusal(op, method, [kind_of(a) for a in positional], {k: kind_of(v) for k, v in kwargs.items()})
    return rule.refused(found) if found is not None else None


def rejected_reduction(op: Op, args, kwargs, torch_message: str) -> Optional[object]:
    """The GL033 violation for a reduction name the op refused (`reduce="sum"` to scatter_); None otherwise.
    `args` put the tensor first, as the function form does (the method's self)."""
    if "reduce argument must be" not in torch_message:
        return None
    found = refused_reduction(op, False, list(args), kwargs)
    return rule.refused_reduction(found) if found else None
