"""Finding the files to lint, reading them as text and writing fixes back, with a clear reason when that fails."""
from __future__ import annotations

import ast
import fnmatch
import functools
import io
import os
import re
import shutil
import tempfile
import tokenize
from typing import Iterator, List, Optional, Sequence, Tuple


class UnreadableFile(Exception):
    """The file cannot be read or decoded; the message says why."""


def discover(paths: Sequence[str], exclude: Sequence[str], force_exclude: bool = False,
             root: str = ".") -> Tuple[List[str], List[str]]:
    """(files to lint in a stable order, paths that do not exist). Paths named explicitly are linted even
    where `exclude` matches them, unless `force_exclude` (pre-commit names every changed file)."""
    files: List[str] = []
    missing: List[str] = []
    for path in paths:
        if path == "-":
            files.append(path)
        elif force_exclude and explicitly_excluded(path, exclude, root):
            continue
        elif os.path.isdir(path):
            files.extend(_walk(path, exclude))
        elif os.path.exists(path) or os.path.islink(path):
            files.append(path)  # an explicitly named file is linted whatever its suffix
        else:
            missing.append(path)
    seen = set()
    unique = [f for f in files if not (f in seen or seen.add(f))]
    return unique, missing


def _walk(root: str, exclude: Sequence[str]) -> Iterator[str]:
    found = []
    visited = set()
    for directory, subdirs, names in os.walk(root, followlinks=False, onerror=None):
        try:
            key = os.stat(directory).st_ino, os.stat(directory).st_dev
        except OSError:
            continue
        if key in visited:
            subdirs[:] = []
            continue
        visited.add(key)
        subdirs[:] = sorted(d for d in subdirs if not _excluded(os.path.join(directory, d), d, exclude))
        for name in names:
            full = os.path.join(directory, name)
            if name.endswith((".py", ".ipynb")) and not _excluded(full, name, exclude):
                found.append(full)
    return iter(sorted(found))


def explicitly_excluded(path: str, patterns: Sequence[str], root: str = ".") -> bool:
    """A named path that a directory walk from `root` would skip: it, or a folder it lies in below `root`,
    matches (a checkout kept under a folder called `build` is not skipped whole). Outside `root`, only the
    path itself is matched."""
    try:
        below = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    except ValueError:  # another drive
        below = os.pardir
    if below == os.pardir or below.startswith(os.pardir + os.sep):
        return _excluded(path, os.path.basename(os.path.normpath(path)), patterns)
    parts = below.replace("\\", "/").split("/")
    return any(_excluded("/".join(parts[:i]), parts[i - 1], patterns) for i in range(1, len(parts) + 1))


def _excluded(path: str, name: str, patterns: Sequence[str]) -> bool:
    """Whether `name` or the path matches one of `patterns`, or the path ends with `/pattern` (fnmatch's
    answers: every pattern is asked of every file and folder of a walk, so each of the three questions is one
    match of all the patterns joined)."""
    if not patterns:
        return False
    whole, tail = _joined(tuple(patterns))
    name, normal = os.path.normcase(name), os.path.normcase(path.replace("\\", "/"))
    return whole.match(name) is not None or whole.match(normal) is not None or tail.match(normal) is not None


@functools.lru_cache(maxsize=16)
def _joined(patterns: Tuple[str, ...]):
    """(the patterns, `*/` + each pattern), each as one regex: fnmatch's translation of each, alternated."""
    def joined(pats):
        return re.compile("|".join(f"(?:{fnmatch.translate(os.path.normcase(p))})" for p in pats))
    return joined(patterns), joined(["*/" + p for p in patterns])


class UnwritableFile(Exception):
    """Fixed text that cannot be written back; the message says why. The file is left as it was."""


def read_source(path: str, stdin=None) -> str:
    """Text of a file, decoded as Python does (BOM, coding cookie, UTF-8 default)."""
    return read_source_and_encoding(path, stdin)[0]


def read_source_and_encoding(path: str, stdin=None) -> Tuple[str, str]:
    """(text, encoding): the text as read_source gives it, and the encoding to write it back in
    (`utf-8-sig` when the file starts with a BOM, else its coding declaration, else UTF-8).
    Line endings are kept as they are: the text holds the file's own `\\r\\n`."""
    try:
        if path == "-":
            raw = (stdin.buffer if hasattr(stdin, "buffer") else stdin).read()
            if isinstance(raw, str):
                return raw, "utf-8"
        else:
            with open(path, "rb") as handle:
                raw = handle.read()
    except IsADirectoryError:
        raise UnreadableFile("is a directory") from None
    except OSError as exc:
        raise UnreadableFile(f"cannot read file: {exc.strerror or exc}") from None
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
        return raw.decode(encoding), encoding
    except (SyntaxError, LookupError) as exc:
        if isinstance(exc, SyntaxError) and _parses(raw):  # an undecodable comment on one of the first two lines
            return raw.decode("utf-8", errors="replace"), _UNDECODED.format("utf-8")
        if "unknown encoding" in str(exc) and (text := _utf8_that_parses(raw)) is not None:
            # `# -*- coding: future_fstrings -*-`: a codec a package registers when installed, not this Python;
            # its files are UTF-8 text, and read as such they are what the codec hands Python
            return text, "utf-8"
        raise UnreadableFile(f"cannot decode file: {exc}") from None
    except UnicodeDecodeError as exc:
        if _parses(raw):  # Python itself reads it: the bytes it cannot decode sit in comments, which it skips
            return raw.decode(encoding, errors="replace"), _UNDECODED.format(encoding)
        raise UnreadableFile(f"cannot decode file as {exc.encoding} (byte {exc.start}); "
                             f"add a coding declaration or save it as UTF-8") from None


# the encoding read_source_and_encoding names for a file Python runs though some of its bytes (in comments) do not
# decode: linted with those bytes replaced, and never written back, which would change them
_UNDECODED = "{} with undecodable comment bytes"


def _utf8_that_parses(raw: bytes) -> Optional[str]:
    """The bytes as UTF-8 text when they are that and parse as Python (the coding line read as a comment)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if _parses(text) else None


def _parses(raw) -> bool:
    try:
        ast.parse(raw)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


def encoded(text: str, encoding: str) -> bytes:
    """`text` in the file's own encoding (read_source_and_encoding's), to write back whole: text the encoding
    cannot hold is an error, never a file written in another encoding than it declares."""
    if encoding.endswith(_UNDECODED.format("")):
        raise UnwritableFile(f"the file holds bytes that are not {encoding.split()[0]} (in comments); writing the fixed "
                             f"code would change them, so the file was left unchanged")
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as exc:
        raise UnwritableFile(f"the fixed code needs {exc.object[exc.start:exc.end]!r}, which the file's encoding "
                             f"({encoding}) cannot hold; the file was left unchanged") from None


def write_whole(path: str, data: bytes) -> None:
    """Replace a file's bytes in one step: written beside it, then renamed over it, so an interrupted run
    (Ctrl-C, a full disk) leaves the old file or the new one, never part of each. A link is followed to
    the file it names; the file's permission bits are kept, and a file that may not be written is not."""
    target = os.path.realpath(path)
    if not os.access(target, os.W_OK):
        raise PermissionError(13, "Permission denied", path)
    fd, scratch = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".gather-lint-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        shutil.copymode(target, scratch)
        os.replace(scratch, target)
    except BaseException:
        try:
            os.unlink(scratch)
        except OSError:
            pass
        raise
