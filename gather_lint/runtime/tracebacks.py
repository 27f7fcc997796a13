"""Tracebacks that read like the user's own program: gather-lint's and runpy's frames left out.

A raised GatherLintError already ends at the user's line (reporting.py appends that frame); these
helpers drop the frames between (gather-lint's own) and above it (runpy, the runner), for the runner
and for uncaught errors in scripts checked through GATHER_LINT_RUNTIME.
"""
import os
import sys
import types

from .errors import GatherLintError, GatherLintWarning
from .location import OWN_DIR

_RUNPY = ("<frozen runpy>", os.path.splitext(getattr(__import__("runpy"), "__file__", "runpy"))[0])


def _library(filename: str) -> bool:
    return filename.startswith(OWN_DIR) or filename.startswith(_RUNPY)


def trimmed(tb):
    """A copy of the traceback chain without library frames and without a frame repeated back to back."""
    kept = []
    while tb is not None:
        code = tb.tb_frame.f_code
        repeat = kept and kept[-1].tb_frame is tb.tb_frame and kept[-1].tb_lineno == tb.tb_lineno
        if not _library(code.co_filename) and not repeat:
            kept.append(tb)
        tb = tb.tb_next
    chain = None
    for entry in reversed(kept):
        chain = types.TracebackType(chain, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return chain


def install_excepthook() -> None:
    """Uncaught GatherLintErrors (and GatherLintWarnings a warnings filter made errors) are printed
    without gather-lint's frames; others as before."""
    previous = sys.excepthook
    if getattr(previous, "_gather_lint", False):
        return

    def hook(kind, exc, tb):
        if isinstance(exc, (GatherLintError, GatherLintWarning)):
            tb = exc.__traceback__ = trimmed(tb) or tb
        previous(kind, exc, tb)

    hook._gather_lint = True
    sys.excepthook = hook
