"""Value ranges an author wrote down: `# labels: [N] class ids in 1..C` (1-based, C included).

A comment that names a tensor and gives its values as `1..C`, `1 to C` or `[1, C]` says the values
reach C itself: a size of C + 1 as positions. Used as an index into a dim of C entries (a one-hot
of C columns), the largest value is out of range and every other reads the next column.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterator, Tuple

from ..contract import Domain
from ..dims import value
from .values import DimVal, TensorVal

_ONE_BASED = re.compile(
    r"^(?P<name>[A-Za-z_]\w*)\s*:.*?(?<![\w.\-])1\s*(?:\.\.\.?|to|–)\s*(?P<upper>[A-Za-z_]\w*|\d+)\b(?!\s*[-+*/(\[])"
    r"|^(?P<name2>[A-Za-z_]\w*)\s*:.*?\bin\s*\[\s*1\s*,\s*(?P<upper2>[A-Za-z_]\w*|\d+)\s*\]")


def one_based(text: str) -> Iterator[Tuple[str, str]]:
    """(name, upper) for `name: ... 1..upper` in one comment's text."""
    found = _ONE_BASED.match(text.lstrip("#").strip())
    if found is None:
        return
    name = found.group("name") or found.group("name2")
    upper = found.group("upper") or found.group("upper2")
    yield name, upper


# a superset of the comments above, looked for once per file: most files hold none, and then no
# statement's comment lines are read for them. `#[^\n]*?(?:\b1\s*(?:\.\.|to|–)|\[\s*1\s*,)` as one pattern
# was tried at every character of every comment; each half starts with one character, and a hit counts
# when a `#` stands before it on its line (neither half can hold another's start: finditer misses none)
_ONE_TO = re.compile(r"1\s*(?:\.\.|to|–)")
_ONE_FIRST = re.compile(r"\[\s*1\s*,")


def _may_hold(source) -> bool:
    cached = getattr(source, "_one_based_comments", None)
    if cached is None:
        text = source.text
        cached = source._one_based_comments = any(
            _commented(text, m.start()) for m in _ONE_TO.finditer(text) if not _word_before(text, m.start())
        ) or any(_commented(text, m.start()) for m in _ONE_FIRST.finditer(text))
    return cached


def _word_before(text: str, at: int) -> bool:
    """No `\\b` before position `at`: a word character stands there (`21 to`)."""
    return at > 0 and (text[at - 1].isalnum() or text[at - 1] == "_")


def _commented(text: str, at: int) -> bool:
    """Whether a `#` stands before position `at` on its line."""
    return text.find("#", text.rfind("\n", 0, at) + 1, at) != -1


def declare(interp, first: int, last: int) -> None:
    """Give the tensors such comment lines (first..last) name the range they state."""
    if not _may_hold(interp.source):
        return
    for comment in interp.source.comments(first, last):
        if not comment.standalone:
            continue
        line = comment.line
        for name, upper in one_based(comment.text):
            old = interp.env.get(name)
            bound = interp.env.get(upper) if not upper.isdigit() else DimVal(int(upper))
            if name not in interp.params or not isinstance(bound, DimVal) or value(bound.dim) is None \
                    or not (old is None or isinstance(old, TensorVal)):
                continue
            base = old or TensorVal()
            origin = (f"1-based (1 to {upper} = {value(bound.dim)}, by the comment at line {line}): each reads the "
                      f"entry after its own; subtract 1")
            domain = replace(base.domain or Domain(), size=value(bound.dim) + 1, origin=origin, category=False)
            interp.env[name] = base.with_(domain=domain)
