"""One source file as the analysis sees it: lines, comments by line, and position helpers."""
from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

_PRAGMA = re.compile(r"gather-lint:\s*shape\s+(.*)$")
_PRAGMA_ITEM = re.compile(r"([A-Za-z_][\w.]*)\s*=\s*([\[(][^\])]*[\])])")


@dataclass
class Comment:
    line: int
    text: str
    standalone: bool  # nothing but whitespace before it on its line


@dataclass
class SourceFile:
    text: str
    lines: List[str] = field(init=False)
    comments: Dict[int, Comment] = field(init=False)

    def __post_init__(self):
        self.lines = self.text.splitlines()
        self.comments = _comments(self.text, self.lines)

    def char_col(self, line: int, byte_col: int) -> int:
        """ast gives UTF-8 byte offsets; editors and flake8 count characters."""
        if not 1 <= line <= len(self.lines):
            return byte_col
        raw = self.lines[line - 1]
        if raw.isascii():
            return byte_col
        return len(raw.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))

    def segment(self, node, limit: int = 48) -> str:
        """Short one-line source text of a node, for messages."""
        try:
            start, end = node.lineno, node.end_lineno
            if start == end:
                raw = self.lines[start - 1].encode("utf-8")[node.col_offset:node.end_col_offset].decode("utf-8", "replace")
            else:
                first = self.lines[start - 1].encode("utf-8")[node.col_offset:].decode("utf-8", "replace")
                middle = self.lines[start:end - 1]
                last = self.lines[end - 1].encode("utf-8")[:node.end_col_offset].decode("utf-8", "replace")
                raw = " ".join([first] + middle + [last])
        except (AttributeError, IndexError, TypeError):
            return "..."
        text = re.sub(r"\s+", " ", raw).strip()
        text = re.sub(r"([(\[]) ", r"\1", text)
        text = re.sub(r",? ([)\]])", r"\1", text)
        return text if len(text) <= limit else text[: limit - 3] + "..."

    def shape_comment(self, first: int, last: int) -> Optional[Comment]:
        """The comment that describes a statement on lines first..last: trailing, else the line above."""
        for line in range(first, last + 1):
            c = self.comments.get(line)
            if c is not None and not c.standalone:
                return c
        above = self.comments.get(first - 1)
        if above is not None and above.standalone:
            return above
        return None

    def pragmas(self, first: int, last: int) -> List[Tuple[str, str]]:
        """`# gather-lint: shape x=[B, L, V]` on lines first..last, as (name, shape text)."""
        found = []
        for line in range(first, last + 1):
            c = self.comments.get(line)
            if c is None:
                continue
            match = _PRAGMA.search(c.text)
            if match:
                found.extend(_PRAGMA_ITEM.findall(match.group(1)))
        return found


def _comments(text: str, lines: List[str]) -> Dict[int, Comment]:
    found: Dict[int, Comment] = {}
    if "#" not in text:
        return found
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                line, col = tok.start
                found[line] = Comment(line, tok.string, not lines[line - 1][:col].strip())
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass  # the file parsed with ast; a tokenizer quirk only costs us comments
    return found
