"""Why torch rejected a family call for what it writes: a src that shares memory with the tensor written
(`x.scatter_(1, idx, x)`), a written-to tensor that is an expand()ed view, `out=` the input itself (GL013);
an index_fill_ value that is a tensor with dims (GL001).

torch says 'some elements of the input tensor and the written-to tensor refer to a single memory
location' without naming either. Asked only once torch has raised, so a valid call pays nothing.
"""
from __future__ import annotations

from typing import Optional

import torch

from ..contract import ERROR, Violation
from ..dims import sizes_text
from ..ops import Op, bind_arguments
from ..rules import gl001_rank_mismatch as rank_rule
from ..rules import gl013_overwriting_accumulate as write_rule

_READ = ("input", "index", "src", "source", "indices")  # the tensors a call reads besides the one it writes


def rejected(op: Op, args, kwargs, torch_message: str) -> Optional[Violation]:
    bound = bind_arguments(op, args, kwargs, method=False)
    if not bound:
        return None
    written_role = "self" if op.in_place else "out"
    written = bound.get("input") if op.in_place else bound.get("out")
    if "single memory location" in torch_message and isinstance(written, torch.Tensor):
        if "more than one element of the written-to tensor" in torch_message:
            return _expanded(written_role, written)
        return _shared(op, bound, written_role, written)
    if op.name == "index_fill" and "0-dimensional value tensor" in torch_message:
        return _filled_with_tensor(bound)
    return None


def _storage(t: torch.Tensor) -> Optional[int]:
    try:
        return t.untyped_storage().data_ptr()
    except (RuntimeError, NotImplementedError):  # a tensor without storage (functional, sparse)
        return None


def _shared(op: Op, bound: dict, written_role: str, written: torch.Tensor) -> Optional[Violation]:
    home = _storage(written)
    roles = [role for role in _READ if not (role == "input" and op.in_place)]
    sharing = [role for role in roles if isinstance(bound.get(role), torch.Tensor) and home is not None
               and _storage(bound[role]) == home]
    if not sharing:
        return None
    role = sharing[0]
    same = bound[role] is written
    what = f"{written_role} itself" if same else f"a view of {written_role}'s memory"
    if op.in_place:
        fix = (f"pass a copy (`{role}.clone()`), or use the out-of-place `{op.name}(...)`, which writes a new tensor")
    else:
        fix = "write into a new tensor (drop `out=`, or give it a fresh buffer)"
    return Violation(
        write_rule.CODE, ERROR,
        f"{role} is {what}, the tensor this call writes: it would read values it is overwriting, so "
        f"the result would depend on the order of the writes, and torch refuses; {fix}")


def _expanded(written_role: str, written: torch.Tensor) -> Optional[Violation]:
    dims = [k for k, (n, s) in enumerate(zip(written.shape, written.stride())) if s == 0 and n > 1]
    if not dims:
        return None
    shown = sizes_text(written.shape)
    return Violation(
        write_rule.CODE, ERROR,
        f"{written_role} {shown} is an expand()ed view (stride 0 on dim {dims[0]}): its {written.shape[dims[0]]} "
        f"entries along that dim are one memory location, so each write would land on the others, and torch "
        f"refuses; write into a tensor of its own: `.clone()` it first (or make it with `.repeat(...)` instead "
        f"of `.expand(...)`)")


def _filled_with_tensor(bound: dict) -> Optional[Violation]:
    value, index = bound.get("value"), bound.get("index")
    if not isinstance(value, torch.Tensor) or value.dim() == 0:
        return None
    shown = sizes_text(value.shape)
    per_index = isinstance(index, torch.Tensor) and value.numel() == index.numel() and value.numel() > 1
    return rank_rule.index_fill_value(shown, value.dim(), per_index)
