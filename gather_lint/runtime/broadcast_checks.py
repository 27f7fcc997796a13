"""GL006 at run time: a gathered result that kept gather's singleton dim meets a tensor without it.

gather(d, idx) with idx of size 1 on `d` returns [..., 1, ...]; the family wrapper marks such a
result (provenance.KEPT). Arithmetic operators and the element-wise losses check a marked operand:
when the other operand has exactly the marked shape minus the singleton, broadcasting grows the
result ([N, 1] with [N] gives [N, N]) or fails; the author meant an element-wise op.
"""
from __future__ import annotations

from typing import Callable, Optional

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


class Kept(int):
    """A kept singleton's axis that says what left it there (a width-1 layer, a keepdim reduction), for the
    message; a plain int axis is gather's."""

    def __new__(cls, axis: int, text: str, kept_by: str):
        kept = super().__new__(cls, axis)
        kept.text, kept.kept_by = text, kept_by
        return kept


def mark_width_one_output(weight, result) -> bool:
    """A width-1 linear layer's output [.., N, 1] (a critic's value, a Q head): one number per sample, kept
    as a column that an [.., N] per-sample tensor must not meet unsqueezed."""
    if not isinstance(weight, torch.Tensor) or weight.dim() != 2 or weight.shape[0] != 1:
        return False
    if not isinstance(result, torch.Tensor) or result.dim() < 2 or result.shape[-2] < 2 or not result.is_floating_point():
        return False
    KEPT.put(result, Kept(result.dim() - 1, "width-1 layer output", "the layer's"))
    return True


def mark_reduced_column(source, result) -> bool:
    """`x.sum(1, keepdim=True)` of an [N, K] x (N, K > 1): a per-row total [N, 1] kept as a column (a summed
    log-prob, a row mean). Only the 2-D case: a [B, T, 1] statistic (a norm's mean) meets [B, T, C] on purpose."""
    if not isinstance(source, torch.Tensor) or source.dim() != 2 or source.shape[0] < 2 or source.shape[1] < 2:
        return False
    if not isinstance(result, torch.Tensor) or tuple(result.shape) != (source.shape[0], 1) or not result.is_floating_point():
        return False
    KEPT.put(result, Kept(1, "keepdim reduction", "`keepdim=True`'s"))
    return True


def mark_joined_columns(tensors, dim, result) -> None:
    """torch.cat of [n, 1] columns along dim 0, one of them marked: the [sum n, 1] result is still that column."""
    if dim not in (0, -2) or not isinstance(result, torch.Tensor) or result.dim() != 2 or result.shape[1] != 1:
        return
    for t in tensors:
        axis = KEPT.get(t) if isinstance(t, torch.Tensor) else None
        if axis is not None and axis != COLUMN_KEY and t.dim() == 2 and axis == 1:
            KEPT.put(result, axis)
            return


COLUMN_KEY = -1  # the mark of `x[idx]` with idx [N, 1]: every dim after the first may be a kept 1


def mark_column_key(key, result) -> bool:
    """`x[idx]` with idx [N, 1] (N > 1) of ids: the result [N, 1, ...] keeps the key's trailing 1."""
    if key.dim() != 2 or key.shape[1] != 1 or key.shape[0] < 2 or key.dtype not in (torch.int64, torch.int32):
        return False
    if not isinstance(result, torch.Tensor) or not result.is_floating_point():
        return False
    KEPT.put(result, COLUMN_KEY)
    return True


def keep_mark(source, result, other=None) -> None:
    """A marked tensor times a scalar (`-1 * x`, `x / 2`), with a tensor of its own shape (`returns - values`),
    or detached or cloned, is still marked: the singleton survives. `other`: the second operand, which may
    be the marked one."""
    axis = KEPT.get(source) if isinstance(source, torch.Tensor) else None
    if axis is None and isinstance(other, torch.Tensor):
        source, axis = other, KEPT.get(other)
    if axis is not None and isinstance(result, torch.Tensor) and result.shape == source.shape:
        KEPT.put(result, axis)


def _column_key(indexed, other, op: str, texts: Callable) -> Optional[Violation]:
    """[N, 1, ...] (ones after N) with [N]: right-aligned, N meets the last 1, so the result is [N, 1, .., N]."""
    shape, other_shape = tuple(indexed.shape), tuple(other.shape)
    if len(other_shape) != 1 or other_shape[0] != shape[0] or any(n != 1 for n in shape[1:]):
        return None
    grown = torch.broadcast_shapes(shape, other_shape)
    indexed_text, other_text = texts() or ("x[idx]", "")
    return rule.check_column_key_broadcast(Shape(shape), Shape(other_shape), Shape(tuple(grown)), op,
                                           indexed_text, other_text)


def _no_texts():
    return None


def _ordered(texts: Callable, swapped: bool) -> Callable:
    """texts() gives (a's, b's) spelling; the check names the gathered operand first."""
    def ordered():
        found = texts()
        return found[::-1] if found is not None and swapped else found
    return ordered


def _same_values(column, other) -> bool:
    """`s - s.view(-1)`: a column against its own flattened view is every pair on purpose (a pairwise
    ranking difference), not a per-sample op."""
    return other.data_ptr() == column.data_ptr() and other.numel() == column.numel()


def combined(a, b, op: str, texts: Callable = _no_texts) -> Optional[Violation]:
    """GL006 when one of a, b is a marked gather result and the other is it minus the singleton. texts():
    how the user spelled a and b (operand_text.operands), asked only for a finding."""
    for gathered, other, swapped in ((a, b, False), (b, a, True)):
        axis = KEPT.get(gathered) if isinstance(gathered, torch.Tensor) else None
        if axis is None or not isinstance(other, torch.Tensor) or _same_values(gathered, other):
            continue
        names = _ordered(texts, swapped)
        if axis == COLUMN_KEY:
            found = _column_key(gathered, other, op, names)
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
        gathered_text, other_text = names() or (getattr(axis, "text", "gathered result"), "other operand")
        return rule.check_broadcast(Shape(shape), axis, Shape(other_shape), gathered_text, other_text, op,
                                    kept_by=getattr(axis, "kept_by", "gather's"))
    return None


def loss_target(input, target, loss: str, texts: Callable = _no_texts) -> Optional[Violation]:
    """GL006 in an element-wise loss: the marked gather result [.., 1, ..] against a target of the same
    rank that matches it everywhere but gather's dim, where it is larger (torch broadcasts, and only warns)."""
    for gathered, other, swapped in ((input, target, False), (target, input, True)):
        axis = KEPT.get(gathered) if isinstance(gathered, torch.Tensor) else None
        if axis is None or axis == COLUMN_KEY or not isinstance(other, torch.Tensor) or other.dim() != gathered.dim():
            continue
        shape, other_shape = tuple(gathered.shape), tuple(other.shape)
        if other_shape[axis] > 1 and all(a == b for k, (a, b) in enumerate(zip(shape, other_shape)) if k != axis):
            named = _ordered(texts, swapped)() or ("gathered result", "target")
            return rule.check_loss_target(Shape(shape), axis, Shape(other_shape), loss, *named)
    return None


# the element-wise losses that broadcast input against target (with only a UserWarning); the binary
# cross-entropies raise on a size mismatch instead
BROADCASTING_LOSSES = frozenset({"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"})


def column_against_vector(input, target, loss: str, texts: Callable = _no_texts) -> Optional[Violation]:
    """GL006 without a mark: a loss between a column [N, 1] (a value head's output) and a vector [N]
    (N > 1), either way round, averages the [N, N] table of every prediction against every target; so
    does a vector [N] against a square [N, N], the outer product such a pair made upstream."""
    for column, vector, swapped in ((input, target, False), (target, input, True)):
        if column.dim() != 2 or vector.dim() != 1 or vector.shape[0] < 2 or column.shape[0] != vector.shape[0]:
            continue
        names = _ordered(texts, swapped)() or (("target", "input") if swapped else ("input", "target"))
        if column.shape[1] == 1:
            return rule.check_broadcast(Shape(tuple(column.shape)), 1, Shape(tuple(vector.shape)), *names, loss,
                                        kept_by="a trailing")
        if column.shape[1] == vector.shape[0]:
            return rule.check_square_loss_operand(Shape(tuple(column.shape)), Shape(tuple(vector.shape)), *names, loss)
    return None
