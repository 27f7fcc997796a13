"""Runtime debug mode: every gather/scatter-family call is checked on the tensor's own device.

    from gather_lint.runtime import checked
    with checked():            # or @checked(), or enable()/disable()
        train_step(batch)

Same codes and wording as the static linter; errors name your own file and line. Raise mode raises
only where torch itself would, with torch's exception type and message; silent mistakes are
GatherLintWarnings at your line.
Run a whole script with `python -m gather_lint.runtime script.py`, a test suite with
`pytest --gather-lint-runtime[=warn]`, or set GATHER_LINT_RUNTIME=raise|warn|off.
TorchScript code is not intercepted (torch offers no hook there).
"""
import functools
import os

from ..runtime_request import requested  # one reading of the variable, shared with the startup hook
# the submodules import one another by module path (`import gather_lint.runtime.values as values`), never
# through this package, which imports them: the import graph reads one way (tests/test_import_graph.py)
from . import interception
from .checker import ASYNC, SYNC
from .errors import GatherLintError, GatherLintWarning
from .mode import RAISE, WARN, GatherLintMode, disable, enable

__all__ = ["checked", "checking", "enable", "disable", "from_environment", "GatherLintError", "GatherLintWarning",
           "GatherLintMode", "RAISE", "WARN", "SYNC", "ASYNC", "ENV"]

ENV = "GATHER_LINT_RUNTIME"


class checked:
    """Context manager and decorator. action: 'raise' or 'warn'. level: 'async' (default: exact
    coordinates on CPU, a device-side assert with no host sync on CUDA) or 'sync' (exact coordinates
    everywhere; syncs CUDA to read the index's range)."""

    def __init__(self, action: str = RAISE, level: str = ASYNC):
        self.action, self.level = action, level
        self._modes = []

    def __enter__(self):
        mode = GatherLintMode(self.action, self.level)
        self._modes.append(mode)
        interception.push(mode)
        return mode

    def __exit__(self, kind, error, tb):
        interception.pop(self._modes.pop(), error)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with checked(self.action, self.level):
                return fn(*args, **kwargs)

        return wrapper


checking = checked  # the name used in earlier examples


def from_environment(default: str = "off") -> str:
    """The action GATHER_LINT_RUNTIME asks for: 'raise', 'warn' or 'off'. A bad value is an error."""
    value = os.environ.get(ENV, default).strip().lower() or default
    if value not in (RAISE, WARN, "off"):
        raise ValueError(f"{ENV}={value!r}: expected raise, warn or off")
    return value


if requested():  # an unknown value is named on stderr once, by whichever reads it first
    from .tracebacks import install_excepthook

    enable(from_environment())  # checks on from the first import, for code that cannot be edited
    install_excepthook()
