"""What GATHER_LINT_RUNTIME asks for. Read by the startup hook (startup.py, which loads the runtime) and
by the runtime when it is imported; one module, so that an unknown value is named once per process.
Standard library only: the startup hook imports it in every interpreter that has the variable set."""
import os
import sys

ENV = "GATHER_LINT_RUNTIME"
ACTIONS = ("raise", "warn")
ACCEPTED = (*ACTIONS, "off")
_warned = False  # once per process: the .pth and a later `import gather_lint.runtime` both check


def requested() -> str:
    """The action the variable asks for ('raise', 'warn'), or '' for none: unset, `off`, or a value
    this module does not know, which is reported once on stderr."""
    global _warned
    value = os.environ.get(ENV, "").strip().lower()
    if value in ACTIONS:
        return value
    if value and value != "off" and not _warned:
        _warned = True
        sys.stderr.write(f"gather-lint: warning: {ENV}={os.environ[ENV]!r} is not one of {', '.join(ACCEPTED)}; "
                         f"runtime checks are off\n")
    return ""
