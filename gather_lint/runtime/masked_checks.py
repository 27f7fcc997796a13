"""GL003 for `masked_scatter`: a mask that selects more positions than the source has values.

`x.masked_scatter(mask, source)` writes source's values, in order, to the positions mask selects
(mask broadcast to x's shape). With fewer source values than selected positions, torch raises
"Number of elements of source < number of ones in mask" on CPU, naming neither count, and reads past
the source on CUDA. The typical cause is a position count computed one way (placeholder tokens per
audio clip or image) and the features another (an encoder's strided convolutions).
"""
from __future__ import annotations

from typing import Optional

import torch

from ..contract import Violation
from ..rules import gl003_index_too_large as too_large
import gather_lint.runtime.values as values


def _selected_shape(x: torch.Tensor, mask: torch.Tensor, in_place: bool) -> Optional[tuple]:
    """The shape the mask is broadcast to; None when torch would reject the shapes itself."""
    try:
        shape = tuple(torch.broadcast_shapes(tuple(x.shape), tuple(mask.shape)))
    except RuntimeError:
        return None
    if in_place and shape != tuple(x.shape):
        return None  # an in-place write cannot grow x: torch raises on the expand
    return shape


def short_source(x, mask, source, in_place: bool, level: str) -> Optional[Violation]:
    if type(x) is not torch.Tensor or not isinstance(mask, torch.Tensor) or not isinstance(source, torch.Tensor) \
            or mask.dtype is not torch.bool or not values.has_values(mask) or mask.device != x.device:
        return None
    shape = _selected_shape(x, mask, in_place)
    if shape is None:
        return None
    have = source.numel()
    if x.device.type != "cpu" and level != "sync":
        # no host sync: a device-side assert instead of reading past the source
        torch._assert_async(mask.expand(shape).sum() <= have, "gather-lint GL003: masked_scatter mask selects more positions than source has values")
        return None
    count = int(mask.expand(shape).sum())
    if count <= have:
        return None
    return too_large.check_masked_source(count, list(shape), list(source.shape), have)
