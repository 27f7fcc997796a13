"""Which codes are reported: select/ignore by code prefix; the more specific prefix wins."""
from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatch
from typing import Dict, Sequence, Tuple


def _longest(code: str, prefixes: Sequence[str]) -> int:
    return max((len(p) for p in prefixes if code.startswith(p)), default=-1)


@dataclass(frozen=True)
class Selection:
    select: Tuple[str, ...] = ("GL",)
    ignore: Tuple[str, ...] = ()
    per_file_ignores: Tuple[Tuple[str, Tuple[str, ...]], ...] = field(default=())

    def for_path(self, path: str) -> "Selection":
        extra = tuple(code for pattern, codes in self.per_file_ignores if _matches(path, pattern) for code in codes)
        return Selection(self.select, self.ignore + extra, ()) if extra else self

    def __call__(self, code: str) -> bool:
        return _longest(code, self.select) > _longest(code, self.ignore)


def _matches(path: str, pattern: str) -> bool:
    normal = path.replace("\\", "/")
    if normal.startswith("./"):
        normal = normal[2:]
    return fnmatch(normal, pattern) or fnmatch(normal.rsplit("/", 1)[-1], pattern) or fnmatch(normal, "*/" + pattern)


def parse_codes(text: str) -> Tuple[str, ...]:
    return tuple(c.strip().upper() for c in text.split(",") if c.strip())


def per_file(mapping: Dict[str, Sequence[str]]) -> Tuple[Tuple[str, Tuple[str, ...]], ...]:
    return tuple(sorted((pattern, tuple(c.upper() for c in codes)) for pattern, codes in mapping.items()))
