"""`python -m gather_lint.runtime [--warn] [--warnings-as-errors] [--level sync] script.py [args...]`: run a script checked.

The script runs as `python script.py` would: `__name__ == "__main__"`, its own `sys.argv`, its exit
code. GATHER_LINT_RUNTIME=warn|off sets the default action. --warnings-as-errors is the runner's own
switch for what `-W error::gather_lint.runtime.GatherLintWarning` does under pytest: the interpreter
reads `python -W` before gather_lint can be imported and drops a category it cannot find.
"""
import argparse
import os
import runpy
import sys
import warnings

from . import GatherLintWarning, checked, from_environment
from .tracebacks import trimmed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gather_lint.runtime",
                                     description="Run a Python script with gather/scatter-family calls checked.")
    parser.add_argument("--warn", action="store_true", help="warn once per call site instead of raising")
    parser.add_argument("--warnings-as-errors", action="store_true",
                        help="silent mistakes (GatherLintWarning) stop the script too, as errors")
    parser.add_argument("--level", choices=("sync", "async"), default=os.environ.get("GATHER_LINT_LEVEL", "async"),
                        help="async (default): device-side assert on CUDA, no host sync; sync: exact coordinates")
    parser.add_argument("script", help="the script to run")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    opts = parser.parse_args(argv)
    if opts.level not in ("sync", "async"):  # argparse checks --level's choices, not a default from the environment
        parser.exit(2, f"gather-lint runtime: error: GATHER_LINT_LEVEL={opts.level!r}: expected sync or async\n")
    try:
        action = "warn" if opts.warn else from_environment("raise")
    except ValueError as exc:
        parser.exit(2, f"gather-lint runtime: error: {exc}\n")
    if not os.path.isfile(opts.script):
        parser.exit(2, f"gather-lint runtime: error: {opts.script}: no such file\n")
    sys.argv = [opts.script] + opts.args
    if opts.warnings_as_errors:
        warnings.filterwarnings("error", category=GatherLintWarning)
    sys.path.insert(0, os.path.dirname(os.path.abspath(opts.script)))
    try:
        if action == "off":
            runpy.run_path(opts.script, run_name="__main__")
        else:
            with checked(action, opts.level):
                runpy.run_path(opts.script, run_name="__main__")
    except Exception as exc:  # noqa: BLE001 (printed as `python script.py` would, exit status 1)
        exc.__traceback__ = trimmed(exc.__traceback__) or exc.__traceback__  # the hook prints this one
        sys.excepthook(type(exc), exc, exc.__traceback__)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
