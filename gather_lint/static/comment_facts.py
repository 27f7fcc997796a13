"""Shape facts from comment lines that name their variables, the way real code documents tensors:

    # memory: [B, N, C]
    # target: (batch,)  gold token of this step
    def forward(self, obs, act):  # obs: (batch, obs_dim)  act: (batch,)

A standalone comment line between statements describes the named variable's current value, or,
for a name not bound yet, the value of its next binding. Stacked `# gather-lint: shape` pragma
lines are read the same way, all of them.
"""
from __future__ import annotations

import ast
from typing import Dict, Iterator, Optional, Tuple

from ..dims import Shape
from .shape_text import typed_entries
from .source import SourceFile

_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try) + (
    (ast.TryStar,) if hasattr(ast, "TryStar") else ()) + ((ast.Match,) if hasattr(ast, "Match") else ())


class CommentLines:
    """Walks the comment lines of one function in step with its statements."""

    def __init__(self, source: SourceFile, start_line: int, end_line: int = 0):
        self.source = source
        self.span = (start_line, end_line or len(source.lines))  # the function's lines
        self.cursor = start_line  # the last line already read
        self.pending: Dict[str, Tuple[Shape, int, Optional[str]]] = {}  # names described before their first binding

    def gap_before(self, stmt: ast.stmt) -> Optional[Tuple[int, int]]:
        """The unread lines before a statement (its decorators included), and move past them."""
        start = stmt.decorator_list[0].lineno if getattr(stmt, "decorator_list", None) else stmt.lineno
        first, last = self.cursor + 1, start - 1
        # a compound statement's body is read statement by statement; anything else is read whole
        end = stmt.lineno if isinstance(stmt, _COMPOUND) else (stmt.end_lineno or stmt.lineno)
        self.cursor = max(self.cursor, end)
        return (first, last) if last >= first else None

    def entries(self, first: int, last: int) -> Iterator[Tuple[int, str, Shape, Optional[str]]]:
        """(line, name, shape, dtype) of every `# name: [dims]` comment line in first..last (`# ids: [B] long`)."""
        for comment in self.source.comments(first, last):
            if not comment.standalone or "gather-lint" in comment.text:
                continue
            for name, shape, dtype in typed_entries(comment.text):
                yield comment.line, name, shape, dtype

    def trailing_entries(self, first: int, last: int) -> Iterator[Tuple[int, str, Shape, Optional[str]]]:
        """Named entries in comments after code on lines first..last (a `def` line)."""
        for comment in self.source.comments(first, last):
            if not comment.standalone:
                for name, shape, dtype in typed_entries(comment.text):
                    yield comment.line, name, shape, dtype
