"""A one-dim shape comment, `x = f(y)  # [agents]`, read as a shape when the file's other shape comments use
that dim name (`# [slots, agents]`).

A lone bracketed word is as often a note (`# [deprecated]`, `# [optional]`) as a shape, so shape_text
rejects it unless the word looks like a size. The same word among the dims of a multi-dim shape comment
of the file is the author's own dim vocabulary: then it is a shape.
"""
from __future__ import annotations

import re
from typing import Optional

from ..dims import Shape, Sym

_LONE_WORD = re.compile(r"^#\s*[\[(]\s*([A-Za-z_]\w*)\s*,?\s*[\])]\s*$")
_CACHE = "_gather_lint_dim_words"


def single_dim(comment: str, source) -> Optional[Shape]:
    match = _LONE_WORD.match(comment.strip())
    if match is None:
        return None
    word = match.group(1)
    return Shape((Sym(word),)) if word in _dim_words(source) else None


def _dim_words(source) -> frozenset:
    """Names used as dims in the file's multi-dim shape comments: `# [slots, agents]`, `# (B, T, D)`."""
    words = getattr(source, _CACHE, None)
    if words is None:
        found = set()
        for group in re.findall(r"#[^\n]*?[\[(]([^\[\]()\n]*,[^\[\]()\n]*)[\])]", source.text):
            parts = [p.strip() for p in group.split(",") if p.strip()]
            if len(parts) >= 2 and all(re.fullmatch(r"[A-Za-z_]\w*|\d+", p) for p in parts):
                found.update(p for p in parts if not p.isdigit())
        words = frozenset(found)
        setattr(source, _CACHE, words)
    return words
