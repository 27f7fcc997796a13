"""A finding on one line, `path:line:col: CODE message`, and the terminal colours the text formats use.

The concise format is this line alone; the full text format (text_output.py) starts each finding with it.
"""
from __future__ import annotations

from .findings import Finding

COLOURS = {"error": "\033[31m", "warning": "\033[33m"}
RESET, BOLD = "\033[0m", "\033[1m"


def text_line(f: Finding, colour: bool = False, message: str = None) -> str:
    """`path:line:col: CODE message`, the concise form and the first line of the full one."""
    code = f"{COLOURS.get(f.severity, '')}{BOLD}{f.code}{RESET}" if colour else f.code
    location = f"{BOLD}{f.path}{RESET}" if colour else f.path
    return f"{location}:{f.line}:{f.column}: {code} {f.message if message is None else message}"
