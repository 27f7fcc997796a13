"""Running a snippet plain and under the runtime mode, for tests that compare the two (imports torch)."""
import warnings

import torch

from gather_lint.runtime import GatherLintWarning, checked

from .snippets import run_snippet


def with_warnings(program: str):
    """(globals, GatherLintWarning messages) of a checked run of the snippet."""
    with warnings.catch_warnings(record=True) as found:
        warnings.simplefilter("always")
        with checked():
            scope = run_snippet(program)
    return scope, [str(w.message) for w in found if issubclass(w.category, GatherLintWarning)]


def plain_and_checked(program: str):
    """(plain globals, checked globals) of two runs from the same seed; a GatherLintWarning fails the run."""
    torch.manual_seed(0)
    plain = run_snippet(program)
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", GatherLintWarning)
        with checked():
            return plain, run_snippet(program)
