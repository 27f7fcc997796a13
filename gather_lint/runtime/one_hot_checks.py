"""Why torch rejected an `F.one_hot(t, num_classes)` call: class values past num_classes, negative ones, a
dtype other than int64 (GL011, GL008).

torch says 'Class values must be smaller than num_classes.' with neither the value, where it sits, nor
how many classes the data needs. Asked only once torch has raised, so a valid call pays nothing.
"""
from __future__ import annotations

from typing import Optional

import torch

from ..contract import ERROR, Violation
from ..rules import gl008_index_dtype as dtype_rule
from ..rules import gl011_index_out_of_range as oob
import gather_lint.runtime.values as values


def rejected(args, kwargs, torch_message: str) -> Optional[Violation]:
    """The cause of torch's rejection of F.one_hot(*args, **kwargs), or None when it is not one of these."""
    t = args[0] if args else kwargs.get("tensor", kwargs.get("input"))
    num_classes = args[1] if len(args) > 1 else kwargs.get("num_classes", -1)
    if not isinstance(t, torch.Tensor) or isinstance(num_classes, bool) or not isinstance(num_classes, int):
        return None
    if "LongTensor" in torch_message:
        return _dtype(t)
    if t.dtype is not torch.int64 or not values.has_values(t) or t.is_cuda:
        return None  # on CUDA torch's own check is a device assert: reading values back would sync there
    low, high = values.span(t)
    if low < 0 and "non-negative" in torch_message:
        coord, value = values.first_bad(t, 0, max(high, 0))
        return Violation(
            oob.CODE, ERROR,
            f"class values span [{low}, {high}] and one_hot() needs them in [0, num_classes); first negative "
            f"value {value} at tensor{list(coord)}: a padding or ignore label (-100, -1) is not a class; "
            f"one-hot the valid positions only (`F.one_hot(t.clamp(min=0), C) * (t >= 0).unsqueeze(-1)`)")
    if num_classes >= 0 and high >= num_classes and "smaller than num_classes" in torch_message:
        coord, value = values.first_bad(t, low, num_classes - 1)
        return Violation(
            oob.CODE, ERROR,
            f"class values span [{low}, {high}] but num_classes={num_classes} (valid: [0, {num_classes - 1}]); "
            f"first bad value {value} at tensor{list(coord)}; num_classes is smaller than the data needs: "
            f"a class of {high} needs num_classes >= {high + 1}{_one_based(low, high, num_classes)}")
    return None


def _one_based(low: int, high: int, num_classes: int) -> str:
    if low >= 1 and high == num_classes:
        return f"; the values span [1, {num_classes}]: labels counted from 1 need `t - 1`"
    return ""


def _dtype(t: torch.Tensor) -> Violation:
    dtype = str(t.dtype).replace("torch.", "")
    if t.is_floating_point():
        how = ("`.long()` (it truncates: round first, `.round().long()`, where the values came from "
               "arithmetic)")
    else:
        how = "`.long()`"
    return Violation(
        dtype_rule.CODE, ERROR,
        f"class values have dtype {dtype} but one_hot() accepts int64 only (int32 too is rejected); "
        f"convert them with {how}")
