"""The reporter (raise or warn at the user's line); also usable as a TorchFunctionMode over every call.

checked()/enable() intercept by patching only the family (interception.py), which is far cheaper.
"""
from __future__ import annotations

import threading
import warnings
from typing import Optional, Set, Tuple

import torch
from torch.overrides import TorchFunctionMode

from . import location
from .checker import ASYNC, SYNC, check_call  # noqa: F401 (SYNC re-exported)
from .errors import GatherLintError, GatherLintWarning
from .targets import TARGETS

RAISE, WARN = "raise", "warn"


class GatherLintMode(TorchFunctionMode):
    """Checks every gather/scatter-family call made while it is active. Results are never changed."""

    def __init__(self, action: str = RAISE, level: str = ASYNC):
        super().__init__()
        if action not in (RAISE, WARN):
            raise ValueError(f"action must be 'raise' or 'warn', not {action!r}")
        if level not in (SYNC, ASYNC):
            raise ValueError(f"level must be 'sync' or 'async', not {level!r}")
        self.action = action
        self.level = level
        self._warned: Set[Tuple[str, object]] = set()
        self._lock = threading.Lock()

    def __torch_function__(self, func, types, args=(), kwargs=None):
        entry = TARGETS.get(func)  # the one dict lookup every other torch call pays
        if entry is not None:
            target, spelling = entry
            violations = check_call(target, args, kwargs or {}, self.level)
            if violations:
                self._report(violations, spelling)
        return func(*args, **(kwargs or {}))

    def _report(self, violations, spelling: str) -> None:
        where = location.user_frame()
        place = location.describe(where)
        rank = _rank()
        for v in violations:
            text = f"{v.code} {spelling}(): {v.message} [at {place}{rank}]"
            if self.action == RAISE:
                raise GatherLintError(text, v.code, place)
            key = (v.code, where)
            with self._lock:
                if key in self._warned:
                    continue
                self._warned.add(key)
            warnings.warn(GatherLintWarning(text), stacklevel=2)


def _rank() -> str:
    dist = getattr(torch, "distributed", None)
    if dist is not None and dist.is_available() and dist.is_initialized():
        return f", rank {dist.get_rank()}"
    return ""


_active: Optional[GatherLintMode] = None


def enable(action: str = RAISE, level: str = ASYNC) -> GatherLintMode:
    """Turn checking on (every thread) until disable()."""
    global _active
    from . import interception

    if _active is not None:
        disable()
    _active = GatherLintMode(action, level)
    interception.push(_active)
    return _active


def disable() -> None:
    global _active
    from . import interception

    if _active is not None:
        interception.pop(_active)
        _active = None
