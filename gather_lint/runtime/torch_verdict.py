"""Ask torch itself whether it rejects a call, and with which exception, without touching the user's tensors.

Used only when a check found an error, so its cost is never paid by a valid call. Tensors the op
writes (`self` of an in-place op, `out=`) are cloned first: torch's CPU kernels check values while
they write, so running the real call could leave a half-written tensor. Tensors on an accelerator
are copied to the CPU: a bad index there would be a device-side assert that poisons the context.
"""
from __future__ import annotations

from typing import Optional

import torch

UNKNOWN = object()  # torch could not be asked (compiling, mixed devices): the verdict stays ours


def rejection(func, args, kwargs):
    """(exception type, message) torch raises for func(*args, **kwargs), None if torch accepts it, or
    UNKNOWN. Only the type and text are kept: the exception's frames would keep the copies alive."""
    if torch.compiler.is_compiling():
        return UNKNOWN
    devices = {a.device for a in _tensors(args, kwargs)}
    if len(devices) > 1 and any(d.type not in ("cpu", "meta") for d in devices):
        return UNKNOWN  # a mixed-device call is not safe to run: torch may launch before it checks
    to_cpu = any(d.type not in ("cpu", "meta") for d in devices)
    name = getattr(func, "__name__", "")
    writes_self = name.endswith("_")
    renorms = name == "embedding"  # F.embedding(max_norm=...) renormalises the weight in place
    safe_args = [_safe(a, to_cpu, renorms or writes_self and i == 0) for i, a in enumerate(args)]
    safe_kwargs = {k: _safe(v, to_cpu, renorms or k == "out") for k, v in kwargs.items()}
    try:
        with torch.no_grad():
            func(*safe_args, **safe_kwargs)
    except Exception as exc:  # noqa: BLE001 (whatever torch raises is the answer)
        return type(exc), message(exc)
    return None


def _tensors(args, kwargs):
    return [a for a in list(args) + list(kwargs.values()) if isinstance(a, torch.Tensor)]


def _safe(value, to_cpu: bool, written: bool):
    if not isinstance(value, torch.Tensor):
        return value
    value = value.detach()
    if to_cpu:
        return value.cpu()  # a copy: safe to write
    return value.clone() if written else value


def message(exc: Optional[BaseException]) -> str:
    """torch's text for exc, as `str(exc)` shows it (the C++ stack note, if any, left out)."""
    text = str(exc)
    return text.split("\nException raised from ")[0]
