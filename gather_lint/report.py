"""Output formats: text (the finding, its source line underlined, shapes and fix), concise
(`path:line:col: CODE message`), JSON, GitHub annotations, SARIF."""
from __future__ import annotations

import json
import re
from typing import Iterable, List, TextIO

from .finding_line import text_line
from .findings import Finding
from .text_output import finding_block

FORMATS = ("text", "concise", "json", "github", "sarif")
WITH_SUMMARY = ("text", "concise")  # the machine formats print nothing but the findings


def write(findings: List[Finding], fmt: str, out: TextIO, colour: bool = False) -> None:
    if fmt == "json":
        json.dump([f.as_json() for f in findings], out, indent=2)
        out.write("\n")
    elif fmt == "sarif":
        from .sarif import document

        json.dump(document(findings), out, indent=2)
        out.write("\n")
    elif fmt == "github":
        for f in findings:
            level = "error" if f.severity == "error" else "warning"
            message = f.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
            out.write(f"::{level} file={f.path},line={f.line},col={f.column},endLine={f.end_line},"
                      f"endColumn={f.end_column},title=gather-lint {f.code}::{f.code} {message}\n")
    elif fmt == "concise":
        for f in findings:
            out.write(text_line(f, colour) + "\n")
    else:
        for f in findings:
            out.write(finding_block(f, colour) + "\n")
    out.flush()  # before the summary on stderr, so a shared terminal or pipe shows them in order


def summary(findings: Iterable[Finding], files: int, missing: int = 0) -> str:
    findings = list(findings)
    # paths that do not exist were not linted: say so rather than claim the run was clean
    tail = f" {missing} path{'s' if missing != 1 else ''} not found." if missing else ""
    if not findings:
        return f"No problems found in {files} file{'s' if files != 1 else ''}.{tail}"
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors
    touched = len({_file_of(f.path) for f in findings})
    return (f"Found {len(findings)} problem{'s' if len(findings) != 1 else ''} "
            f"({errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}) "
            f"in {touched} of {files} file{'s' if files != 1 else ''}.{tail}")


_CELL = re.compile(r":cell \d+$")


def _file_of(path: str) -> str:
    """The file a finding is in: `nb.ipynb:cell 3` is in nb.ipynb (its cells are not files)."""
    return _CELL.sub("", path)
