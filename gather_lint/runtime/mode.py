"""The reporter (raise or warn at the user's line); also usable as a TorchFunctionMode over every call.

checked()/enable() intercept by patching only the family (interception.py), which is far cheaper.
"""
from __future__ import annotations

import threading
from typing import Optional

from torch.overrides import TorchFunctionMode

import gather_lint.runtime.interception as interception
from .checker import ASYNC, SYNC, check_call  # noqa: F401 (SYNC re-exported)
from .reporting import RAISE, WARN, report
from .targets import TARGETS

_checking = threading.local()  # set while a GatherLintMode handles a call: outer ones pass it through


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

    def __torch_function__(self, func, types, args=(), kwargs=None):
        __tracebackhide__ = True
        entry = TARGETS.get(func)  # the one dict lookup every other torch call pays
        if entry is None or getattr(_checking, "active", False):
            return func(*args, **(kwargs or {}))  # not ours, or an inner GatherLintMode already checks it
        _checking.active = True
        try:
            target, spelling = entry
            violations = check_call(target, args, kwargs or {}, self.level)
            if violations:
                self._report(violations, spelling, (func, args, kwargs or {}))
            return func(*args, **(kwargs or {}))
        finally:
            _checking.active = False

    def _report(self, violations, spelling: str, call) -> None:
        __tracebackhide__ = True
        report(violations, spelling, call, self.action)


_active: Optional[GatherLintMode] = None


def enable(action: str = RAISE, level: str = ASYNC) -> GatherLintMode:
    """Turn checking on (every thread) until disable()."""
    global _active
    if _active is not None:
        disable()
    _active = GatherLintMode(action, level)
    interception.push(_active)
    return _active


def disable() -> None:
    global _active
    if _active is not None:
        interception.pop(_active)
        _active = None
