"""GL007 at run time: labels shifted twice, decided on the ids the model was fed.

A data pipeline that makes next-token labels (`labels = ids[:, 1:]`, padded back to T) hands them to a
loss that shifts again (`logits[:, :-1]` against `labels[:, 1:]`): the loss sees T - 1 positions whose
target at position t is token t + 2, the token after next. No error, a plausible loss.

The evidence is the values: a target of T - 1 positions per fed sequence of T ids (a [B, T - 1] index
of a gather, or the B * (T - 1) targets of a loss) equals the fed ids two positions ahead at every
position but the last (which holds a fill value or the next row's token) apart from one fill value and
the loss's ignore index, at least two distinct ids agree, and the once-shifted pairing (token t + 1)
does not hold. Correctly shifted labels agree with the ids two ahead only where a token repeats.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

import torch

from ..contract import WARNING, Violation
import gather_lint.runtime.shift_checks as shift_checks

CODE = "GL007"


def _fed_with_one_less(vocab: int, numel: int) -> List[torch.Tensor]:
    """Fed id sequences [.., T] (T >= 4) looked up in a table of `vocab` rows, unchanged since, whose
    sequences hold numel values once each loses a position; newest first."""
    found = []
    for ref, version, rows, shape in reversed(shift_checks.FED):
        steps = shape[-1]
        if rows != vocab or steps < 4 or shift_checks._numel(shape) // steps * (steps - 1) != numel:
            continue
        ids = ref()
        if ids is not None and shift_checks._version(ids) == version:
            found.append(ids)
    return found


def _two_ahead(target: torch.Tensor, ids: torch.Tensor, ignore_index: Optional[int]) -> Optional[Tuple[int, int]]:
    """(agreeing, compared) when target [.., T - 1] is ids [.., T] two positions ahead everywhere but its
    last column, the ignore index and one fill value, and is not ids one position ahead."""
    if target.device != ids.device:
        return None
    head = target[..., :-1]
    counted = head != ignore_index if ignore_index is not None else torch.ones_like(head, dtype=torch.bool)
    if int(counted.sum()) < 2:
        return None
    found = shift_checks._agrees(head[counted], ids[..., 2:][counted])
    if found is None:
        return None
    if shift_checks._agrees(head[counted], ids[..., 1:-1][counted]) is not None:
        return None  # one position ahead fits as well (repeated tokens): the values cannot tell the shift
    return found


def _violation(ids: torch.Tensor, agreeing: int, total: int, how: str) -> Violation:
    return Violation(
        CODE, WARNING,
        f"{how} scores {ids.shape[-1] - 1} positions per sequence against targets that equal the ids the model was "
        f"fed ({list(ids.shape)}) two positions ahead ({agreeing} of {total} positions compared): the labels were "
        f"shifted twice (once where they were made, again before the loss), so position t is scored against token "
        f"t+2, the token after next, silently; shift once: pair logits[..., :-1, :] with ids[..., 1:] (or pass "
        f"the already shifted labels with the logits unsliced)",
    )


def loss_target(scores, target, ignore_index, how: str, level: str) -> Optional[Violation]:
    """cross_entropy / nll_loss with [N, V] scores and an [N] target, or [B, V, T-1] with [B, T-1]."""
    if not shift_checks.FED or type(scores) is not torch.Tensor or type(target) is not torch.Tensor \
            or scores.dim() < 2 or target.is_floating_point() or target.dim() != scores.dim() - 1:
        return None
    vocab = scores.shape[1]
    for ids in _fed_with_one_less(vocab, target.numel()):
        if scores.dim() > 2 and (target.shape[:-1] != ids.shape[:-1] or target.shape[-1] != ids.shape[-1] - 1):
            continue
        if not shift_checks._readable(target, level):
            return None
        rows = target.reshape(*ids.shape[:-1], ids.shape[-1] - 1)
        ignored = ignore_index if isinstance(ignore_index, int) else None
        found = _two_ahead(rows, ids, ignored)
        if found is not None:
            return _violation(ids, *found, how)
    return None


def gathered(scores, dim, index, how: str, level: str) -> Optional[Violation]:
    """`logp[:, :-1].gather(-1, labels[:, 1:, None])` on [.., T - 1, V] scores with labels already shifted."""
    if not shift_checks.FED or type(scores) is not torch.Tensor or type(index) is not torch.Tensor \
            or scores.dim() < 2 or not scores.is_floating_point() or dim not in (-1, scores.dim() - 1) \
            or index.dim() != scores.dim() or index.shape[-1] != 1 or index.shape[:-1] != scores.shape[:-1]:
        return None
    vocab = scores.shape[-1]
    for ids in _fed_with_one_less(vocab, index.numel()):
        if ids.shape[:-1] != index.shape[:-2] or ids.shape[-1] - 1 != index.shape[-2]:
            continue
        if not shift_checks._readable(index, level):
            return None
        found = _two_ahead(index.squeeze(-1), ids, None)
        if found is not None:
            return _violation(ids, *found, how)
    return None
