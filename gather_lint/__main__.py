"""`python -m gather_lint` and the `gather-lint` script.

Importing the analyzer takes most of a second: Ctrl-C in that time ends the run the same way as Ctrl-C while it
lints (one line, exit 130), not with a traceback of the import."""
import sys

from .exit_codes import interrupted


def run() -> int:
    try:
        from .cli import main
    except KeyboardInterrupt:
        return interrupted()
    return main()


if __name__ == "__main__":
    sys.exit(run())
