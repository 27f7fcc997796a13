"""GL006 at run time: a gathered result that kept gather's singleton dim meets a tensor without it.

gather(d, idx) with idx of size 1 on `d` returns [..., 1, ...]; the family wrapper marks such a
result (provenance.KEPT). Arithmetic operators and the element-wise losses check a marked operand:
when the other operand has exactly the marked shape minus the singleton, broadcasting grows the
result ([N, 1] with [N] gives [N, N]) or fails; the author meant an element-wise op.
"""
from __future__ import annotations

from typing import Optional

import torch

from ..contract import Violation
from ..dims import Shape
from ..rules import gl006_missing_squeeze as rule
from .provenance import KEPT


def mark_kept_singleton(inp, index, axis: Optional[int], result) -> bool:
    """Remember result's singleton at `axis` when gather left one there on a larger input dim."""
    # gathered values (log-probs, Q-values) are what gets combined per sample; gathered ids are not
    if axis is None or not isinstance(result, torch.Tensor) or result.dim() < 2 or not result.is_floating_point():
        return False
    if index.shape[axis] == 1 and inp.shape[axis] > 1 and result.shape[axis] == 1:
        KEPT.put(result, axis)
        return True
    return False


COLUMN_KEY = -1  # the mark of `x[idx]` with idx [N, 1]: every dim after the first may be a kept 1


def mark_column_key(key, result) -> bool:
    """`x[idx]` with idx [N, 1] (N > 1) of ids: the result [N, 1, ...] keeps the key's trailing 1."""
    if key.dim() != 2 or key.shape[1] != 1 or key.shape[0] < 2 or key.dtype not in (torch.int64, torch.int32):
        return False
    if not isinstance(result, torch.Tensor) or not result.is_floating_point():
        return False
    KEPT.put(result, COLUMN_KEY)
    return True


def keep_mark(source, result) -> None:
    """A marked tensor times a scalar (`-1 * x`, `x / 2`) is still marked: the singleton survives."""
    axis = KEPT.get(source)
    if axis is not None and isinstance(result, torch.Tensor) and result.shape == source.shape:
        KEPT.put(result, axis)


def _column_key(indexed, other, op: str) -> Optional[Violation]:
    """[N, 1, ...] (ones after N) with [N]: right-aligned, N meets the last 1, so the result is [N, 1, .., N]."""
    shape, other_shape = tuple(indexed.shape), tuple(other.shape)
    if len(other_shape) != 1 or other_shape[0] != shape[0] or any(n != 1 for n in shape[1:]):
        return None
    grown = torch.broadcast_shapes(shape, other_shape)
    return rule.check_column_key_broadcast(Shape(shape), Shape(other_shape), Shape(tuple(grown)), op)


def combined(a, b, op: str) -> Optional[Violation]:
    """GL006 when one of a, b is a marked gather result and the other is it minus the singleton."""
    for gathered, other in ((a, b), (b, a)):
        axis = KEPT.get(gathered) if isinstance(gathered, torch.Tensor) else None
        if axis is None or not isinstance(other, torch.Tensor):
            continue
        if axis == COLUMN_KEY:
            found = _column_key(gathered, other, op)
            if found is not None:
                return found
            continue
        shape, other_shape = tuple(gathered.shape), tuple(other.shape)
        rest = shape[:axis] + shape[axis + 1:]
        if len(other_shape) != len(shape) - 1 or other_shape != rest:
            continue
        try:
            grown = torch.broadcast_shapes(shape, other_shape)
        except RuntimeError:
            grown = None  # torch will raise a size mismatch
        if grown is not None and grown == torch.Size(shape):
            continue  # nothing grows (a batch of one): harmless
        return rule.check_broadcast(Shape(shape), axis, Shape(other_shape), "gathered result", "other operand", op)
    return None


def loss_target(input, target, loss: str) -> Optional[Violation]:
    """GL006 in an element-wise loss: the marked gather result [.., 1, ..] against a target of the same
    rank that matches it everywhere but gather's dim, where it is larger (torch broadcasts, and only warns)."""
    for gathered, other in ((input, target), (target, input)):
        axis = KEPT.get(gathered) if isinstance(gathered, torch.Tensor) else None
        if axis is None or axis == COLUMN_KEY or not isinstance(other, torch.Tensor) or other.dim() != gathered.dim():
            continue
        shape, other_shape = tuple(gathered.shape), tuple(other.shape)
        if other_shape[axis] > 1 and all(a == b for k, (a, b) in enumerate(zip(shape, other_shape)) if k != axis):
            return rule.check_loss_target(Shape(shape), axis, Shape(other_shape), loss)
    return None


# the element-wise losses that broadcast input against target (with only a UserWarning); the binary
# cross-entropies raise on a size mismatch instead
BROADCASTING_LOSSES = frozenset({"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"})


def column_against_vector(input, target, loss: str) -> Optional[Violation]:
    """GL006 without a mark: a loss between a column [N, 1] (a value head's output) and a vector [N]
    (N > 1), either way round, averages the [N, N] table of every prediction against every target; so
    does a vector [N] against a square [N, N], the outer product such a pair made upstream."""
    for column, vector, names in ((input, target, ("input", "target")), (target, input, ("target", "input"))):
        if column.dim() != 2 or vector.dim() != 1 or vector.shape[0] < 2 or column.shape[0] != vector.shape[0]:
            continue
        if column.shape[1] == 1:
            return rule.check_broadcast(Shape(tuple(column.shape)), 1, Shape(tuple(vector.shape)), *names, loss,
                                        kept_by="a trailing")
        if column.shape[1] == vector.shape[0]:
            return rule.check_square_loss_operand(Shape(tuple(column.shape)), Shape(tuple(vector.shape)), *names, loss)
    return None
