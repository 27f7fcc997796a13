"""GL007 at run time: token ids scored by the logits computed at their own positions.

A language model's logits at position t predict token t+1. When the ids a model was just fed
([B, T], through an embedding of V rows) come back as the per-token target of a [B, T, V] score
tensor (gather along the vocab dim, cross_entropy/nll_loss) at the same positions, every token is
scored by the prediction made *at* it, not *for* it: no error, a plausible loss.

The evidence is the values: the target equals the embedded ids at every position apart from one
fill value (-100, a pad or 0 written over the prompt), and the positions that agree hold at least
two distinct ids. Correctly shifted labels (ids[:, 1:]) agree only where a token repeats; a masked
LM's labels differ from its masked inputs exactly where they count. Only full-length targets are
compared (a shifted pair has T - 1 positions).
"""
from __future__ import annotations

import weakref
from typing import List, Optional, Tuple

import torch

from ..contract import WARNING, Violation
import gather_lint.runtime.values as values

CODE = "GL007"
_ROWS = 64  # sequences of a batch tried against one sequence's scores
_KEPT = 4  # the latest embedded id sequences remembered (token, position and type embeddings of a forward)
FED: List[Tuple[weakref.ref, int, int, tuple]] = []  # (ids, their version, table rows, shape), newest last


def note_fed(ids, weight) -> None:
    """Remember a sequence of ids an embedding table looked up: [.., T] with T > 1, on readable values."""
    if type(ids) is not torch.Tensor or ids.dim() == 0 or ids.shape[-1] < 2 or not isinstance(weight, torch.Tensor) \
            or weight.dim() != 2 or not values.has_values(ids):
        return
    for ref, *_ in FED:
        if ref() is ids:
            return
    try:
        ref = weakref.ref(ids)
    except TypeError:
        return
    FED.append((ref, _version(ids), weight.shape[0], tuple(ids.shape)))
    if len(FED) > _KEPT:
        del FED[0]


def clear() -> None:
    FED.clear()


def fed_rows(index) -> Optional[int]:
    """The rows of the table that looked up `index` (or the tensor it views: `ids.unsqueeze(-1)`), when its
    values are unchanged since; None for ids no embedding was fed."""
    if not FED or not isinstance(index, torch.Tensor):
        return None
    for t in (index, index._base):
        if t is None:
            continue
        for ref, version, rows, _ in reversed(FED):
            if ref() is t and _version(t) == version:
                return rows
    return None


def _fed_like(vocab: int, numel: int, shape: Optional[tuple] = None) -> List[torch.Tensor]:
    """The remembered ids looked up in a table of `vocab` rows, of `numel` values (and `shape`),
    unchanged since, newest first."""
    found = []
    for ref, version, rows, fed_shape in reversed(FED):
        if rows == vocab and (fed_shape == shape if shape is not None else _numel(fed_shape) == numel):
            ids = ref()
            if ids is not None and _version(ids) == version:
                found.append(ids)
    return found


def _version(t: torch.Tensor) -> int:
    """In-place writes bump it; inference tensors keep none (-1: taken as unchanged)."""
    return -1 if t.is_inference() else t._version


def _readable(t: torch.Tensor, level: str) -> bool:
    """Values can be read without a device sync (or the sync level allows one)."""
    return values.has_values(t) and (t.is_cpu or level == "sync")


def _agrees(target: torch.Tensor, ids: torch.Tensor) -> Optional[Tuple[int, int]]:
    """(agreeing positions, positions) when target equals ids everywhere but at one fill value,
    with at least two distinct ids among the agreeing positions; None otherwise."""
    if target.device != ids.device:
        return None
    same = target == ids
    agreeing = int(same.sum())
    if agreeing < 2:
        return None
    others = target[~same]
    if others.numel() and bool((others != others.reshape(-1)[0]).any()):
        return None  # the disagreeing positions hold real tokens: a shift, not a fill
    kept = ids[same]
    if not bool((kept != kept.reshape(-1)[0]).any()):
        return None  # one id repeated (padding): says nothing about positions
    return agreeing, same.numel()


def _shifted_scores(scores: torch.Tensor) -> bool:
    """The first position holds one constant over the vocab in every row: the logits were shifted
    right (padded or concatenated in front), so position t already holds the prediction for token t."""
    first = scores.select(-2, 0)
    return bool((first == first[..., :1]).all())


def _violation(scores: tuple, ids: torch.Tensor, agreeing: int, total: int, how: str) -> Violation:
    where = "every position" if agreeing == total else f"{agreeing} of {total} positions (the rest hold one fill value)"
    return Violation(
        CODE, WARNING,
        f"{how} scores the ids a model was just fed ({list(ids.shape)}) with the {list(scores)} scores computed at "
        f"their own positions ({where}): logits at position t predict token t+1, so each token is scored by the "
        f"prediction made at it instead of for it, silently; pair logits[..., :-1, :] with ids[..., 1:] "
        f"(or shift the labels by one where they are made)",
    )


def gathered(scores: torch.Tensor, dim, index: torch.Tensor, how: str, level: str) -> Optional[Violation]:
    """`scores.gather(-1, ids.unsqueeze(-1))` on [.., T, V] scores with the fed ids [.., T]."""
    if not FED or type(scores) is not torch.Tensor or type(index) is not torch.Tensor or scores.dim() < 2 \
            or not scores.is_floating_point() or dim not in (-1, scores.dim() - 1) or index.dim() != scores.dim() \
            or index.shape[-1] != 1 or index.shape[:-1] != scores.shape[:-1]:
        return None
    vocab = scores.shape[-1]
    candidates = [(ids, ids) for ids in _fed_like(vocab, 0, tuple(scores.shape[:-1]))]
    window = _window(scores)
    if window is not None:
        base, start = window
        length = scores.shape[-2]
        candidates += _windows_of_fed(base, start, length)
    for ids, positions in candidates:
        if not _readable(index, level):
            return None
        found = _agrees(index.squeeze(-1), positions)
        if found is not None and not _shifted_scores(scores):
            return _violation(tuple(scores.shape), ids, *found, how)
    return None


def _windows_of_fed(base: torch.Tensor, start: int, length: int) -> list:
    """(ids, ids at positions start..start+length) for the fed ids the base's positions cover: all of
    them, or one sequence of the batch when the base holds one sequence's [T, V] scores."""
    vocab, steps = base.shape[-1], base.shape[-2]
    found = [(ids, ids.reshape(base.shape[:-1])[..., start:start + length]) for ids in _fed_like(vocab, base.numel() // vocab)]
    if base.dim() == 2:
        for ref, version, rows, shape in reversed(FED):
            ids = ref() if rows == vocab and shape[-1] == steps and _numel(shape) > steps else None
            if ids is not None and _version(ids) == version:
                found += [(ids, row[start:start + length]) for row in ids.reshape(-1, steps)[:_ROWS]]
    return found


def _window(scores: torch.Tensor) -> Optional[Tuple[torch.Tensor, int]]:
    """(base, start) when scores is `base[..., start:start + L, :]` of a contiguous [.., T, V] base
    (the leading dims whole), e.g. the log-probs of a continuation cut from the whole sequence's."""
    base = scores._base
    if base is None or base.dim() != scores.dim() or not base.is_contiguous() or scores.stride() != base.stride() \
            or scores.shape[:-2] != base.shape[:-2] or scores.shape[-1] != base.shape[-1] or scores.shape[-2] >= base.shape[-2]:
        return None
    offset = scores.storage_offset() - base.storage_offset()
    vocab = base.shape[-1]
    if offset % vocab or offset // vocab + scores.shape[-2] > base.shape[-2]:
        return None
    return base, offset // vocab


def loss_target(scores, target, ignore_index, how: str, level: str) -> Optional[Violation]:
    """cross_entropy / nll_loss with [N, V] scores and an [N] target, or [B, V, T] with [B, T], against fed ids."""
    if not FED or type(scores) is not torch.Tensor or type(target) is not torch.Tensor or scores.dim() < 2 \
            or target.is_floating_point() or target.dim() != scores.dim() - 1:
        return None
    vocab = scores.shape[1]
    for ids in _fed_like(vocab, target.numel()):
        if scores.dim() == 2 and target.dim() == 1:
            flat = target
        elif scores.dim() > 2 and tuple(target.shape) == tuple(ids.shape) and scores.shape[2:] == target.shape[1:]:
            flat = target
        else:
            continue
        if not _readable(flat, level):
            return None
        flat = flat.reshape(ids.shape)
        counted = flat != ignore_index
        found = _agrees(flat[counted], ids[counted]) if bool(counted.any()) else None
        if found is not None and not _shifted_scores(_per_position(scores, ids.shape)):
            return _violation((flat.numel(), vocab), ids, *found, how)
    return None


def _per_position(scores: torch.Tensor, shape) -> torch.Tensor:
    """Loss scores ([N, V] or [B, V, T]) laid out as [.., T, V] like the ids."""
    if scores.dim() == 2:
        return scores.reshape(*shape, scores.shape[1])
    return scores.movedim(1, -1)


def _numel(shape: tuple) -> int:
    n = 1
    for size in shape:
        n *= size
    return n
