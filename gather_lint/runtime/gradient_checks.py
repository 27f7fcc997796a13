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
            return _violation(function, k, tuple(output.shape), tuple(grad.shape))
    return None


def _violation(function: str, k: int, output: tuple, grad: tuple) -> Violation:
    ones_dropped = tuple(n for n in grad if n != 1)
    if len(grad) > len(output) and ones_dropped == tuple(n for n in output if n != 1):
        added = [i for i, n in enumerate(grad) if n == 1][: len(grad) - len(output)]
        fix = f"drop the added dim (`.squeeze({added[0]})` on the gradient)" if len(added) == 1 else \
            f"drop the added dims (`.view({', '.join(map(str, output)) or ''})` on the gradient)"
    else:
        fix = f"pass a gradient of the output's shape {Shape(output)}"
    which = "the gradient" if k == 0 else f"gradient {k}"
    return Violation(
        rule.CODE, rule.SEVERITY,
        f"{which} given to {function}() is {Shape(grad)} but its output is {Shape(output)}: a gradient must have "
        f"exactly its output's shape, so torch raises 'Mismatch in shape'; {fix}",
    )
