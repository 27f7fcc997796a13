"""Runtime debug mode: every gather/scatter-family call is checked on the tensor's own device.

    from gather_lint.runtime import checking
    with checking():            # or @checking(), or enable()/disable()
        train_step(batch)

Same codes and wording as the static linter; errors name your own file and line.
Run a whole script with `python -m gather_lint.runtime script.py`, a test suite with
`pytest --gather-lint-runtime`. TorchScript code is not intercepted (torch offers no hook there).
"""
import functools

from .checker import ASYNC, SYNC
from .errors import GatherLintError, GatherLintWarning
from .mode import RAISE, WARN, GatherLintMode, disable, enable

__all__ = ["checking", "enable", "disable", "GatherLintError", "GatherLintWarning", "GatherLintMode",
           "RAISE", "WARN", "SYNC", "ASYNC"]


class checking:
    """Context manager and decorator. action: 'raise' or 'warn'; level: 'sync' (exact coordinates,
    syncs CUDA) or 'async' (device-side assert on CUDA, no host sync)."""

    def __init__(self, action: str = RAISE, level: str = SYNC):
        self.action, self.level = action, level
        self._modes = []

    def __enter__(self):
        mode = GatherLintMode(self.action, self.level)
        self._modes.append(mode)
        return mode.__enter__()

    def __exit__(self, *exc):
        return self._modes.pop().__exit__(*exc)

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with checking(self.action, self.level):
                return fn(*args, **kwargs)

        return wrapper
