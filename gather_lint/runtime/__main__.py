"""`python -m gather_lint.runtime [--warn] [--level async] script.py [args...]`: run a script checked."""
import argparse
import os
import runpy
import sys

from . import checking


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gather_lint.runtime",
                                     description="Run a Python script with gather/scatter-family calls checked.")
    parser.add_argument("--warn", action="store_true", help="warn once per call site instead of raising")
    parser.add_argument("--level", choices=("sync", "async"), default=os.environ.get("GATHER_LINT_LEVEL", "sync"),
                        help="sync: exact coordinates (syncs CUDA); async: device-side assert, no host sync")
    parser.add_argument("script", help="the script to run")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    opts = parser.parse_args(argv)
    if not os.path.isfile(opts.script):
        parser.exit(2, f"gather-lint runtime: error: {opts.script}: no such file\n")
    sys.argv = [opts.script] + opts.args
    sys.path.insert(0, os.path.dirname(os.path.abspath(opts.script)))
    with checking("warn" if opts.warn else "raise", opts.level):
        runpy.run_path(opts.script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
