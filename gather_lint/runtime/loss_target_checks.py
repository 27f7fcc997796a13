"""Why torch rejected a classification loss's target: `F.cross_entropy` / `F.nll_loss` (and the
`nn.CrossEntropyLoss` / `nn.NLLLoss` modules, which call them).

torch's words name neither tensor: 'Expected target size [2, 7], got [2, 5]' for [B, T, V] scores (the
loss reads classes on dim 1), 'Target 3 is out of bounds.', 'expected target dtype to be Long or Byte',
'0D or 1D target tensor expected, multi-target not supported' for a target [B, 1]. Each is matched to
its cause from the shapes and values, and only after torch has raised, so a valid loss pays nothing.
"""
from __future__ import annotations

from typing import Optional

import torch

from ..contract import ERROR, Violation
from ..dims import sizes_text
from ..rules import gl001_rank_mismatch as rank_rule
from ..rules import gl004_index_from_wrong_dim as dim_rule
from ..rules import gl006_missing_squeeze as kept_rule
from ..rules import gl008_index_dtype as dtype_rule
from ..rules import gl011_index_out_of_range as oob
import gather_lint.runtime.values as values

_IGNORE_AT = 3  # ignore_index's place among the arguments after input: (target, weight, size_average, ignore_index)


def _shape(t) -> str:
    return sizes_text(t.shape)


def rejected(function: str, input, args, kwargs, torch_message: str) -> Optional[Violation]:
    """The cause of torch's rejection of function(input, *args, **kwargs), or None when none is found."""
    target = args[0] if args else kwargs.get("target")
    if not isinstance(input, torch.Tensor) or not isinstance(target, torch.Tensor) or input.dim() < 1:
        return None
    ignore_index = args[_IGNORE_AT] if len(args) > _IGNORE_AT else kwargs.get("ignore_index", -100)
    if "Expected target size" in torch_message or "size mismatch (got input" in torch_message:
        return _class_dim_last(function, input, target)
    if "multi-target not supported" in torch_message:
        return _kept_trailing_one(function, input, target)
    if "Expected input batch_size" in torch_message:
        return _target_not_flattened(function, input, target)
    if "expected target dtype" in torch_message or "expected scalar type Long but found" in torch_message:
        return _dtype(function, input, target)
    if "out of bounds" in torch_message and isinstance(ignore_index, int):
        return _out_of_range(function, input, target, ignore_index)
    return None


def _class_dim_last(function: str, input, target) -> Optional[Violation]:
    """[B, T, V] scores with a [B, T] target: the loss reads classes on dim 1 (T here), the scores hold them last."""
    shape, wanted = tuple(input.shape), tuple(input.shape[:1]) + tuple(input.shape[2:])
    if input.dim() < 3 or tuple(target.shape) != shape[:-1] or tuple(target.shape) == wanted:
        return None
    v, rows = shape[-1], target.numel()
    transpose = ".transpose(1, 2)" if input.dim() == 3 else ".movedim(-1, 1)"
    return Violation(
        dim_rule.CODE, ERROR,
        f"the loss reads the classes on dim 1 of input (size {shape[1]} here), but input {_shape(input)} holds "
        f"them last ({v}) and target {_shape(target)} has one class id per position of input's other dims; "
        f"move the class dim to 1 with `input{transpose}` (target stays {_shape(target)}), or flatten both: "
        f"`input.reshape(-1, {v})` [{rows}, {v}] and `target.reshape(-1)` [{rows}]")


def _kept_trailing_one(function: str, input, target) -> Optional[Violation]:
    """A target [N, 1] (a label column: `labels.unsqueeze(1)`, `view(-1, 1)`) against scores [N, C]."""
    wanted = (input.shape[0],) if input.dim() == 2 else None
    if wanted is None or target.dim() != 2 or target.shape[1] != 1 or tuple(target.shape[:1]) != wanted:
        return None
    return Violation(
        kept_rule.CODE, ERROR,
        f"target {_shape(target)} kept a trailing 1: with input {_shape(input)} (N rows, C classes) {function}() "
        f"wants one class id per row, target [{wanted[0]}]; drop the 1 with `target.squeeze(1)` "
        f"(or `target.view(-1)`)")


def _target_not_flattened(function: str, input, target) -> Optional[Violation]:
    """Scores flattened to [B*T, V] with the target left [B, T]."""
    if input.dim() != 2 or target.dim() < 2 or target.numel() != input.shape[0] or target.is_floating_point():
        return None
    return Violation(
        rank_rule.CODE, ERROR,
        f"input {_shape(input)} has one row per position ({input.shape[0]} rows of {input.shape[1]} classes) but "
        f"target {_shape(target)} still has {target.dim()} dims: {function}() wants one class id per row, "
        f"target [{input.shape[0]}]; flatten it as the scores were: `target.reshape(-1)`")


def _dtype(function: str, input, target) -> Optional[Violation]:
    if target.dtype == torch.int64 or target.dtype == torch.uint8 and input.dim() <= 2:
        return None  # uint8 ids pass torch's 2-d kernel only ([B, C, H, W] scores want int64)
    dtype = str(target.dtype).replace("torch.", "")
    if target.is_floating_point():
        shape_of_probs = _shape(input)
        return Violation(
            dtype_rule.CODE, ERROR,
            f"target {_shape(target)} holds {dtype} values where {function}() reads class indices (input "
            f"{_shape(input)}); class ids must be int64: `target.long()`"
            + ("" if function == "nll_loss" else
               f" (a float target is read as class probabilities only when shaped like input, {shape_of_probs})"))
    return Violation(
        dtype_rule.CODE, ERROR,
        f"target {_shape(target)} has dtype {dtype} but {function}() reads class ids from int64 only; "
        f"convert them with `target.long()`")


def _out_of_range(function: str, input, target, ignore_index: int) -> Optional[Violation]:
    """A target value >= C, or negative and not ignore_index."""
    if target.is_floating_point() or target.is_cuda or not values.has_values(target):
        return None  # probabilities have no ids; CUDA: torch's own device assert, no sync for a message
    classes = input.shape[1] if input.dim() >= 2 else input.shape[0]
    kept = target[target != ignore_index]
    if kept.numel() == 0:
        return None
    low, high = values.span(kept)
    if low >= 0 and high < classes:
        return None
    bad = (target != ignore_index) & ((target < 0) | (target >= classes))
    coord = tuple(int(c) for c in bad.nonzero()[0])
    value = int(target[coord])
    hint = _hint(low, high, classes, value, ignore_index)
    return Violation(
        oob.CODE, ERROR,
        f"target values span [{low}, {high}] (leaving out ignore_index={ignore_index}) but input "
        f"{_shape(input)} has {classes} classes on dim {1 if input.dim() >= 2 else 0} (valid: [0, {classes - 1}]); "
        f"first bad value {value} at target{list(coord)}; {hint}")


def _hint(low: int, high: int, classes: int, value: int, ignore_index: int) -> str:
    if value < 0:
        return (f"a padding label {value} is not ignore_index={ignore_index}: pass `ignore_index={value}` or pad "
                f"with {ignore_index}")
    if low >= 1 and high == classes:
        return f"the labels span [1, {classes}]: labels counted from 1 need `target - 1`"
    return f"the scores need {high + 1} classes or more, or the labels another mapping"
