"""Which statement a standalone shape comment describes, by the file's own habit.

Most code writes a shape comment on the line above the statement it describes; some files write it on
the line below (`x = Tensor(np.zeros((B, N)))` then `# shape = (batch, node)`). A comment line between
two statements reads either way, so the file decides: where some standalone shape comment follows a
statement and has nothing after it in its block (a blank line, the block's end), it can only describe the
statement above it, and the file writes them below. There, a comment between two statements is the
earlier one's, and the later statement gets no shape from it.
"""
from __future__ import annotations

from .shape_text import parse_comment


def below_statements(source) -> bool:
    """The file writes standalone shape comments below the statements they describe (cached per file)."""
    found = getattr(source, "_shape_comments_below", None)
    if found is None:
        found = any(_only_below(source.lines, c.line) for c in source.comments(1, len(source.lines))
                    if c.standalone and parse_comment(c.text, None, above=True) is not None)
        source._shape_comments_below = found
    return found


def _only_below(lines, line: int) -> bool:
    """The comment at `line` follows a statement and ends its block: a blank line, the file's end, or code
    indented less than it comes next."""
    if not follows_statement(lines, line):
        return False
    if line >= len(lines):
        return True
    after = lines[line]
    if not after.strip():
        return True
    return _indent(after) < _indent(lines[line - 1]) and not after.lstrip().startswith("#")


def follows_statement(lines, line: int) -> bool:
    """The comment line `line` comes right after a line of code that ends a statement."""
    return line >= 2 and _ends_statement(lines[line - 2])


def _ends_statement(text: str) -> bool:
    """Code on the line (not blank, not a comment) that does not open a block or continue a bracket."""
    code = text.split("#", 1)[0].rstrip()
    return bool(code.strip()) and not code.endswith((":", "(", "[", "{", ",", "\\"))


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())
