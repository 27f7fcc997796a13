"""GL001 at run time for a batch squeezed away: `pred = model(x).squeeze()` then `pred[:, k]`.

A bare `.squeeze()` drops every size-1 dim, the batch's too when a batch holds one sample (the last,
short batch of an epoch). The next per-column read has more indices than the tensor has dims and torch
raises 'too many indices for tensor of dimension ...', naming neither the squeeze nor the batch.
The squeeze is remembered only when it dropped a leading 1; the read is looked at only once torch
has rejected it, so valid reads pay nothing.
"""
from typing import Optional

import torch

from ..contract import Violation
from ..rules import gl001_rank_mismatch as rule
from .provenance import WeakFacts

SQUEEZED = WeakFacts()  # results of a bare squeeze() that dropped a leading size-1 (batch) dim -> the shape before


def note(args, kwargs, result) -> None:
    """`x.squeeze()` / `torch.squeeze(x)` with no dim, on x [1, ...] of 2 dims or more: the batch went too."""
    if len(args) != 1 or kwargs:
        return
    source = args[0]
    if isinstance(source, torch.Tensor) and source.dim() >= 2 and source.shape[0] == 1 \
            and isinstance(result, torch.Tensor) and result.dim() < source.dim():
        SQUEEZED.put(result, tuple(source.shape))


def too_many_indices(x) -> Optional[Violation]:
    """The read torch rejected was of a squeezed batch of one: say where its dims went."""
    before = SQUEEZED.get(x)
    if before is None:
        return None
    shown = ", ".join(map(str, before))
    now = ", ".join(map(str, x.shape))
    return Violation(
        rule.CODE, rule.SEVERITY,
        f"this tensor [{now}] came from a bare `.squeeze()` of [{shown}]: with a batch of one sample the squeeze "
        f"dropped the batch dim as well, so the read has more indices than the tensor has dims and torch raises "
        f"'too many indices'; squeeze only the dim meant (`.squeeze(-1)`) or none",
    )


def clear() -> None:
    SQUEEZED.clear()
