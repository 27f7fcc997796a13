"""GL006 at run time for distributions: `log_prob` of a value that kept a trailing 1.

A distribution with batch shape [N] (one per sample) scoring a value [N, 1] (actions stored as a
column) broadcasts the value's 1 against N: the result is [N, N], each value under each sample's
distribution. Decided on the shapes, with one exception left silent: a value that enumerates
0..N-1 down its column is the support enumerated on purpose (`arange(A)[:, None]` with A == N).
"""
from __future__ import annotations

from typing import Optional

import torch

from ..contract import Violation
from ..dims import Shape
from ..rules import gl006_missing_squeeze as rule


def check(distribution, value, texts=lambda: None) -> Optional[Violation]:
    """texts(): (the distribution's, the value's) spelling at the user's line, asked only for a finding."""
    if not isinstance(value, torch.Tensor) or getattr(distribution, "event_shape", None) != torch.Size():
        return None
    batch = tuple(distribution.batch_shape)
    shape = tuple(value.shape)
    if not batch or batch[-1] < 2 or shape != batch + (1,):
        return None
    if len(batch) == 1 and value.dtype != torch.bool and torch.equal(
            value.reshape(-1), torch.arange(batch[0], device=value.device, dtype=value.dtype)):
        return None
    grown = tuple(torch.broadcast_shapes(shape, batch))
    spelled = texts()
    return rule.check_distribution_value(type(distribution).__name__, Shape(batch), Shape(shape), Shape(grown),
                                         spelled[1] if spelled else "value")
