"""The command line's exit statuses, and the one line it prints when Ctrl-C stops it."""
import sys

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 128 + 2  # a shell's status for a command ended by SIGINT (Ctrl-C)


def interrupted() -> int:
    """Ctrl-C: one line, no traceback."""
    print("gather-lint: interrupted", file=sys.stderr)
    return EXIT_INTERRUPTED
