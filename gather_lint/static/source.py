"""One source file as the analysis sees it: lines, comments by line, and position helpers."""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from .text_scan import any_between

_PRAGMA = re.compile(r"gather-lint:\s*shape\s+(.*)$")
_PRAGMA_ITEM = re.compile(r"([A-Za-z_][\w.]*)\s*=\s*([\[(][^\])]*[\])])")


@dataclass
class Comment:
    line: int
    text: str
    standalone: bool  # nothing but whitespace before it on its line


_SPACES = re.compile(r"\s+")
_SPACE_AFTER_OPEN = re.compile(r"([(\[]) ")
_SPACE_BEFORE_CLOSE = re.compile(r",? ([)\]])")


def _tidy(raw: str) -> str:
    """A node's text on one line: spaces run together, none inside brackets. Most segments are one ASCII
    line already tidy: substring tests say so before any of the three substitutions runs."""
    if raw.isascii() and raw.isprintable() and "  " not in raw:  # (tabs, line ends: not printable)
        text = raw.strip()  # single spaces only: nothing to run together
    else:
        text = _SPACES.sub(" ", raw).strip()
    if "( " in text or "[ " in text:
        text = _SPACE_AFTER_OPEN.sub(r"\1", text)
    if " )" in text or " ]" in text:
        text = _SPACE_BEFORE_CLOSE.sub(r"\1", text)
    return text


class SourceFile:
    """Lines of a file, with comments read lazily: only the lines the analysis asks about are scanned."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.splitlines()
        self._comments: Dict[int, Optional[Comment]] = {}
        self._holding: Dict[str, List[int]] = {}  # needle -> numbers of the lines holding it, found on first use
        self._segments: Dict[tuple, str] = {}
        # asked at every statement the analysis runs; most files hold no pragma
        self.may_hold_pragmas = "gather-lint" in text

    def comment(self, line: int) -> Optional[Comment]:
        if line not in self._comments:
            self._comments[line] = _comment_on(self.lines, line)
        return self._comments[line]

    def any_comment(self, first: int, last: int) -> bool:
        """Whether a line in first..last may hold a comment (it holds a `#`): most gaps between statements
        hold none, and this answers without looking at each line."""
        return any_between(self._lines_holding("#"), first, last)

    def comments(self, first: int, last: int, needle: str = "#") -> List[Comment]:
        """The comments on lines first..last (those whose line holds `needle`), in order. Only the lines
        holding it are looked at: a gap between two top-level blocks of a partly parsed file spans thousands
        of lines."""
        numbers = self._lines_holding(needle)
        found = []
        for i in range(bisect.bisect_left(numbers, first), bisect.bisect_right(numbers, last)):
            c = self.comment(numbers[i])
            if c is not None:
                found.append(c)
        return found

    def spells(self, needle: str, first: int, last: int) -> bool:
        """Whether a line from first to last (1-based, inclusive) holds the needle."""
        return any_between(self._lines_holding(needle), first, last)

    def _lines_holding(self, needle: str) -> List[int]:
        """Numbers (from 1) of the lines holding `needle`, in order."""
        if needle not in self._holding:
            self._holding[needle] = [number for number, line in enumerate(self.lines, 1) if needle in line]
        return self._holding[needle]

    def char_col(self, line: int, byte_col: int) -> int:
        """ast gives UTF-8 byte offsets; editors and flake8 count characters."""
        if not 1 <= line <= len(self.lines):
            return byte_col
        raw = self.lines[line - 1]
        if raw.isascii():
            return byte_col
        return len(raw.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))

    def segment(self, node, limit: int = 48) -> str:
        """Short one-line source text of a node, for messages (read once per node: a function runs again
        under every caller's facts)."""
        key = (getattr(node, "lineno", None), getattr(node, "col_offset", None), getattr(node, "end_lineno", None),
               getattr(node, "end_col_offset", None), limit)  # the text depends on the position only
        if key not in self._segments:
            self._segments[key] = self._segment(node, limit)
        return self._segments[key]

    def _segment(self, node, limit: int) -> str:
        try:
            start, end = node.lineno, node.end_lineno
            if start == end:
                line = self.lines[start - 1]
                raw = line[node.col_offset:node.end_col_offset] if line.isascii() else \
                    line.encode("utf-8")[node.col_offset:node.end_col_offset].decode("utf-8", "replace")  # byte offsets
            else:
                first = self.lines[start - 1].encode("utf-8")[node.col_offset:].decode("utf-8", "replace")
                middle = self.lines[start:end - 1]
                last = self.lines[end - 1].encode("utf-8")[:node.end_col_offset].decode("utf-8", "replace")
                raw = " ".join([first] + middle + [last])
        except (AttributeError, IndexError, TypeError):
            return "..."
        text = _tidy(raw)
        return text if len(text) <= limit else text[: limit - 3] + "..."

    def shape_comment(self, first: int, last: int) -> Optional[Comment]:
        """The comment that describes a statement on lines first..last: trailing, else the line above."""
        if not self.any_comment(first - 1, last):
            return None
        for line in range(first, last + 1):
            c = self.comment(line)
            if c is not None and not c.standalone:
                return c
        above = self.comment(first - 1)
        if above is not None and above.standalone:
            return above
        return None

    def pragmas(self, first: int, last: int) -> List[Tuple[str, str]]:
        """`# gather-lint: shape x=[B, L, V]` on lines first..last, as (name, shape text)."""
        found = []
        for c in self.comments(first, last, "gather-lint"):
            match = _PRAGMA.search(c.text)
            if match:
                found.extend(_PRAGMA_ITEM.findall(match.group(1)))
        return found


def _comment_on(lines: List[str], line: int) -> Optional[Comment]:
    """The `#` comment on one line, skipping `#` inside string literals on that line."""
    if not 1 <= line <= len(lines):
        return None
    raw = lines[line - 1]
    if "#" not in raw:
        return None
    quote = None
    i = 0
    while i < len(raw):
        ch = raw[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if raw.startswith(quote, i):
                i += len(quote)
                quote = None
                continue
        elif ch in "\"'":
            quote = raw[i:i + 3] if raw[i:i + 3] in ('"""', "'''") else ch
            i += len(quote)
            continue
        elif ch == "#":
            return Comment(line, raw[i:].rstrip(), not raw[:i].strip())
        i += 1
    return None
