import textwrap

import pytest

from gather_lint.api import lint_text


def lint(code: str, path: str = "snippet.py"):
    """Findings for a snippet (dedented), as a list."""
    return lint_text(textwrap.dedent(code), path).findings


def codes(code: str):
    return [f.code for f in lint(code)]


@pytest.fixture
def torch():
    return pytest.importorskip("torch")
