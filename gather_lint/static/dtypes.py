"""Dtypes made by common idioms, where torch's answer is certain whatever the other operand is."""
from __future__ import annotations

from typing import Optional

from .values import TensorVal

FLOAT_DTYPES = {"float16", "bfloat16", "float32", "float64"}


def is_integer(t) -> bool:
    return isinstance(t, TensorVal) and t.dtype is not None and t.dtype not in FLOAT_DTYPES


def true_division(a, b, dtype: Optional[str]) -> Optional[str]:
    """dtype of `a / b` (and `torch.div` without rounding_mode) given the promoted `dtype`.

    True division never keeps an integer dtype: an integer tensor divided by a Python number or an
    integer tensor is the default float (float32); by a float tensor, that tensor's dtype."""
    if dtype in FLOAT_DTYPES:
        return dtype
    tensors = [v for v in (a, b) if isinstance(v, TensorVal)]
    if dtype is not None:
        return "float32"
    if len(tensors) == 1 and is_integer(tensors[0]):
        return "float32"  # integer tensor / number (an unknown operand is read as a number)
    return None
