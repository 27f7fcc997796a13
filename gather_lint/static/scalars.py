"""Python numbers of unknown value: `smoothing=0.1`, `eps: float`, and arithmetic on them.

`torch.tensor(1.0 - smoothing)` is then known to be 0-d, which matters where a 0-d tensor is
not a scalar: scatter's `src` must have the index's rank, unlike a Python number `value`.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional

from ..dims import Shape
from .values import DimVal, Literal, TensorVal


@dataclass(frozen=True)
class NumberVal:
    """A Python float whose value is not known (a parameter's default or annotation says float)."""


def is_float_number(value) -> bool:
    return isinstance(value, NumberVal) or (isinstance(value, Literal) and isinstance(value.value, float))


def arith(left, right) -> Optional[NumberVal]:
    """`1.0 - smoothing`, `smoothing / (n - 1)`: numbers in, a number out (a tensor operand gives a tensor)."""
    sides = (left, right)
    if any(isinstance(s, NumberVal) for s in sides) and all(is_float_number(s) or isinstance(s, DimVal) for s in sides):
        return NumberVal()
    return None


def tensor_of(value) -> Optional[TensorVal]:
    """`torch.tensor(number)`: a 0-d float32 tensor."""
    if is_float_number(value):
        return TensorVal(Shape(()), "float32", origin="constructor")
    return None


def bind_float_params(env: dict, node) -> None:
    """Parameters annotated `float`, or with a float literal default, hold a Python number."""
    args = node.args
    positional = args.posonlyargs + args.args
    defaults = dict(zip([p.arg for p in positional[len(positional) - len(args.defaults):]], args.defaults))
    defaults.update({p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    for param in positional + args.kwonlyargs:
        if env.get(param.arg) is not None:
            continue
        annotated = isinstance(param.annotation, ast.Name) and param.annotation.id == "float"
        default = defaults.get(param.arg)
        if annotated or (isinstance(default, ast.Constant) and isinstance(default.value, float)):
            env[param.arg] = NumberVal()
