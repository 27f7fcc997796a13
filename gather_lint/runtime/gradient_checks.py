"""GL001 at run time for a gradient handed to backward: `q.backward(error.unsqueeze(1))`.

`torch.autograd.backward(outputs, grad_tensors)` (and `Tensor.backward(gradient)`,
`torch.autograd.grad(outputs, inputs, grad_outputs)`) needs each gradient in exactly its output's
shape. A gradient with a dim added, [N, 1] for an output [N], is not: torch raises 'Mismatch in shape'
from inside autograd, with no word on which argument or how to fix it. The
check runs only after torch has rejected the call, so valid backward passes pay nothing.
"""
from typing import Optional

import torch

from ..contract import Violation
from ..dims import Shape
from ..rules import gl001_rank_mismatch as rule


def _listed(value) -> list:
    if value is None:
        return []
    return [value] if isinstance(value, torch.Tensor) else list(value)


def pairs(function: str, args: tuple, kwargs: dict):
    """(output, gradient) pairs of a backward(...) or grad(...) call, in argument order."""
    if function == "grad":
        outputs = args[0] if args else kwargs.get("outputs")
        grads = args[2] if len(args) > 2 else kwargs.get("grad_outputs")
    else:
        outputs = args[0] if args else kwargs.get("tensors")
        grads = args[1] if len(args) > 1 else kwargs.get("grad_tensors")
    return list(zip(_listed(outputs), _listed(grads)))


def mismatch(function: str, args: tuple, kwargs: dict) -> Optional[Violation]:
    for k, (output, grad) in enumerate(pairs(function, args, kwargs)):
        if isinstance(output, torch.Tensor) and isinstance(grad, torch.Tensor) and grad.shape != output.shape:
            return rule.check_gradient_shape(function, k, Shape(tuple(output.shape)), Shape(tuple(grad.shape)))
    return None
