"""Fast text tests for the prefilters that decide which files (and blocks) are parsed at all.

A regex such as `\\b(?:gather|scatter_add|...)\\b` has no literal prefix, so Python's `re` tries
every alternative at every position of a file: on large model files that costs more than the
analysis that follows. These tests find a literal needle with `str.find` (memory speed) and look
at the few characters around each hit, with the same answers as the patterns they replace.
"""
from __future__ import annotations

import bisect
import contextlib
import functools
import re
from typing import Callable, Dict, Iterable, Iterator, List, Pattern, Tuple, TypeVar

_WORD_TAIL = re.compile(r"\w*")
# `def name(` at any depth: the functions a block defines (read with findall on one block's text)
DEFINED_FUNCTION = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)
_FIRST_METHOD = re.compile(r"^([ \t]+)(?:async[ \t]+)?def[ \t]", re.MULTILINE)


_Answer = TypeVar("_Answer")
# (the file's text, {test: answer}): one tuple, read and replaced whole, so a thread linting another file
# never reads this file's answers
_file: Tuple[object, Dict[object, object]] = (None, {})  # answers keyed by test, or (test, *options)


@contextlib.contextmanager
def reading(text: str):
    """While one file's text is analysed, whole-file tests (see file_test) answer each question once."""
    global _file
    outer, _file = _file, (text, {})
    try:
        yield
    finally:
        _file = outer


def current_file() -> str:
    """The text of the file being read (empty outside `reading`), for tests asked of a part of it that
    depend on the whole (an import elsewhere in the file)."""
    text = _file[0]
    return text if isinstance(text, str) else ""


def file_test(test: Callable[..., _Answer]) -> Callable[..., _Answer]:
    """A text test that the prefilter, the block choice and the checks each ask of the whole file: asked
    of the text being read (the same object), it is answered once; asked of a part, it runs."""
    @functools.wraps(test)
    def asked(text: str, *options) -> _Answer:  # options: further arguments, hashable (flags)
        current, answers = _file
        if text is not current:
            return test(text, *options)
        key = (test, *options) if options else test
        try:
            return answers[key]
        except KeyError:
            answer = answers[key] = test(text, *options)
            return answer
    return asked


def positions(text: str, needle: str, start: int = 0) -> Iterator[int]:
    """Every index where `needle` starts in `text` (overlapping hits included)."""
    at = text.find(needle, start)
    while at != -1:
        yield at
        at = text.find(needle, at + 1)


def line_span(text: str, at: int) -> Tuple[int, int]:
    """(start, end) of the line holding position `at`, its newline left out."""
    end = text.find("\n", at)
    return text.rfind("\n", 0, at) + 1, len(text) if end == -1 else end


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def starts_word(text: str, at: int) -> bool:
    """`\\b` before position `at` (the character there is a word character)."""
    return at == 0 or not _word_char(text[at - 1])


def word_positions(text: str, word: str) -> Iterator[int]:
    """Where `word` stands whole (`\\bword\\b`)."""
    for at in positions(text, word):
        if starts_word(text, at) and followed_by_boundary(text, at + len(word)):
            yield at


def has_word(text: str, stems: Iterable[str], words) -> bool:
    """`\\b(?:words)\\b`: some whole word of `words` is in text. Every word starts with one of `stems`
    (the literal needles searched)."""
    for stem in stems:
        for at in positions(text, stem):
            if starts_word(text, at) and _WORD_TAIL.match(text, at).group() in words:
                return True
    return False


def _call_positions(text: str, names: Iterable[str]) -> Iterator[int]:
    """Where each `\\b(?:names)\\s*\\(` starts: one of `names` called (a name ending where `(` follows)."""
    for name in names:
        for at in positions(text, name):
            if not starts_word(text, at):
                continue
            end = at + len(name)
            while end < len(text) and text[end].isspace():
                end += 1
            if end < len(text) and text[end] == "(":
                yield at


def has_call(text: str, names: Iterable[str]) -> bool:
    """`\\b(?:names)\\s*\\(`: one of `names` called."""
    return next(_call_positions(text, names), None) is not None


def call_lines(text: str, names: Iterable[str]) -> List[int]:
    """The sorted line numbers (from 1) where one of `names` is called. A hit in a comment or string
    counts too: callers use the lines to decide what to look at, never as findings."""
    lines, line, last = [], 1, 0
    for at in sorted(_call_positions(text, names)):  # counted from the previous hit, not from the start
        line += text.count("\n", last, at)
        last = at
        lines.append(line)
    return lines


def any_match(text: str, needle: str, pattern: Pattern[str]) -> bool:
    """`pattern` (which starts with `needle`) matches at some hit of `needle`."""
    return any(pattern.match(text, at) for at in positions(text, needle))


def followed_by_boundary(text: str, end: int) -> bool:
    """`\\b` after a word that ends at `end`."""
    return end >= len(text) or not _word_char(text[end])


def any_between(lines: List[int], first: int, last: int) -> bool:
    """Whether the sorted line numbers `lines` hold one in first..last (a scope's span)."""
    i = bisect.bisect_left(lines, first)
    return i < len(lines) and lines[i] <= last


def match_lines(text: str, pattern: Pattern[str]) -> set:
    """The line numbers (from 1) where `pattern` matches, counting newlines once from one match to the next."""
    return _lines_at(text, (m.start() for m in pattern.finditer(text)))


def literal_lines(text: str, needles: Iterable[str]) -> set:
    """match_lines of the alternation of `needles`, literals none of which can overlap a hit of another (or
    its own): one `str.find` pass each, where the alternation, with no literal to start from, was tried at
    every character of the text."""
    return _lines_at(text, sorted(at for needle in needles for at in positions(text, needle)))


def _lines_at(text: str, starts: Iterable[int]) -> set:
    """The line numbers (from 1) of the ascending positions `starts`."""
    lines, line, last = set(), 1, 0
    for at in starts:
        line += text.count("\n", last, at)
        last = at
        lines.add(line)
    return lines


_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")
_NAME_START = re.compile(r"[A-Za-z_\[]")


def subscript_key(text: str, close: int):
    """The key of the subscript whose `]` is at `close` (`i` of `x[i]`), read back on the same line to
    the matching `[`; None where it starts on an earlier line."""
    depth = 0
    at = close
    while at > 0:
        at -= 1
        ch = text[at]
        if ch == "\n":
            return None
        if ch in ")]}":
            depth += 1
        elif ch in "([{":
            if depth == 0:
                return text[at + 1:close] if ch == "[" else None
            depth -= 1
    return None


def may_hold_tensor(key: str, tuples: bool = True) -> bool:
    """Whether a subscript's key can be (or hold) an index tensor: it spells a name, a call or a nested
    list; numbers, slices, `None` and string keys (`batch["labels"]`) cannot. `tuples=False`: a key with a
    top-level comma (`x[:, i]`) does not count."""
    bare = _QUOTED.sub("", key).replace("None", "")
    if _NAME_START.search(bare) is None:
        return False
    if tuples:
        return True
    depth = 0
    for ch in bare:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            return False
    return True


def parts(block: str) -> List[str]:
    """A top-level block as the pieces an own analysis reads: a class block's members (each method with
    its decorators; a class attribute joins the method before it), any other block whole."""
    if not block.startswith(("class ", "@")) or "\nclass " not in "\n" + block:
        return [block]
    first = _FIRST_METHOD.search(block)
    if first is None:
        return [block]
    member = re.compile(rf"^{first.group(1)}(?:@|def[ \t]|async[ \t]+def[ \t])", re.MULTILINE)
    starts, decorated = [0], False
    for m in member.finditer(block):
        if not decorated:  # a def (or decorator) under a decorator belongs to it
            starts.append(m.start())
        decorated = block.startswith("@", m.end() - 1)
    return [block[a:b] for a, b in zip(starts, starts[1:] + [len(block)])]
