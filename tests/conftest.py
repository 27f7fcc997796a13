import os
import textwrap

import pytest

from gather_lint.api import lint_text
from gather_lint.static import scope_faults

# a fault in the analysis fails the test where it happened (a user's run gives up only that function)
os.environ.setdefault(scope_faults.RAISE_VARIABLE, "1")


def lint(code: str, path: str = "snippet.py"):
    """Findings for a snippet (dedented), as a list."""
    return lint_text(textwrap.dedent(code), path).findings


def codes(code: str):
    return [f.code for f in lint(code)]


@pytest.fixture
def torch():
    return pytest.importorskip("torch")
