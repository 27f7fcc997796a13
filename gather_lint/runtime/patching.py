"""The other way to intercept: replace the family's functions and methods with checked wrappers.

Kept for comparison (benchmarks/runtime_overhead.py): it costs nothing on other torch calls, but it
misses names bound before it was entered (`from torch import gather`), which the mode catches.
"""
from __future__ import annotations

import functools

import torch
import torch.nn.functional as F

from ..ops import OPS
from .checker import ASYNC, check_call
from .mode import RAISE, GatherLintMode
from .targets import EMBEDDING


class patched:
    """Context manager: the same checks as GatherLintMode, by attribute replacement."""

    def __init__(self, action: str = RAISE, level: str = ASYNC):
        self._reporter = GatherLintMode(action, level)
        self._saved = []

    def __enter__(self):
        places = [(owner, name, op) for name, op in OPS.items()
                  for owner in (torch, torch.Tensor) if hasattr(owner, name) and (owner is torch.Tensor or op.has_function)]
        places.append((F, "embedding", EMBEDDING))
        for owner, name, target in places:
            original = getattr(owner, name)
            self._saved.append((owner, name, original))
            setattr(owner, name, self._wrap(original, target, f"{'Tensor' if owner is torch.Tensor else owner.__name__.split('.')[-1]}.{name}"))
        return self

    def __exit__(self, *exc):
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved.clear()
        return False

    def _wrap(self, original, target, spelling):
        reporter = self._reporter

        @functools.wraps(original)
        def checked(*args, **kwargs):
            violations = check_call(target, args, kwargs, reporter.level)
            if violations:
                reporter._report(violations, spelling, (original, args, kwargs))
            return original(*args, **kwargs)

        return checked
