"""flake8 plugin (prefix GL): the same findings as the CLI, from the same library call.

flake8 does its own `# noqa`, select/ignore and per-file-ignores, so the adapter reports
everything and lets flake8 filter. flake8 columns are 0-based; the library's are 1-based.
"""
from __future__ import annotations

from typing import Iterator, Tuple

from . import __version__
from .api import file_fault
from .static.analyzer import lint_source


class GatherLintChecker:
    name = "gather-lint"
    version = __version__

    def __init__(self, tree, lines, filename: str = "<stdin>"):
        self.lines = lines
        self.filename = filename

    def run(self) -> Iterator[Tuple[int, int, str, type]]:
        try:
            findings = lint_source("".join(self.lines), self.filename, select=None, noqa=False).findings
        except Exception as exc:  # never end flake8's run: every other file's results would be lost
            findings = [file_fault(self.filename, exc)]
        for f in findings:
            yield f.line, f.column - 1, f"{f.code} {f.message}", type(self)
