"""What a lint run reports: findings with 1-based positions, and per-file counts."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Dict, List, NamedTuple, Optional

PARSE_ERROR = "GL000"  # the file could not be read, decoded or parsed: always reported


class Edit(NamedTuple):
    """One part of a fix: the node at this 1-based character span (as the AST reports it), and the
    codemod `kind` that rewrites it (gather_lint.codemods.registry), with what that kind needs."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str  # append: the suffix; replace: the new expression; keyword: `name=value`; else ""
    # append | wrap_append | replace | floor_division | keyword | accumulate | exact_cast; a plain
    # 5-tuple (line, col, end_line, end_col, text) is a replacement of the span's text
    kind: str = "replace"


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    column: int  # 1-based, in characters
    code: str
    end_line: int
    end_column: int
    severity: str
    message: str
    # the automatic fix as Edits (a node's position and the codemod that rewrites it); None when
    # no automatic fix exists. The edits may sit on other lines than the finding (where a float was made).
    fix: Optional[tuple] = field(default=None, compare=False)
    # for the readable text output; they describe a finding, they do not identify it
    help: Optional[str] = field(default=None, compare=False)  # the fix sentence that ends `message`
    shapes: tuple = field(default=(), compare=False)  # ((label, expression, shape text), ...)
    # the source line shown and what to underline on it: (lines after `line`, column, end column), 1-based
    # columns; an offset rather than a line number, so it survives a notebook's renumbering of `line`
    source_line: Optional[str] = field(default=None, compare=False)
    underline: Optional[tuple] = field(default=None, compare=False)

    def as_json(self) -> dict:
        data = asdict(self)
        for display_only in _NOT_IN_JSON:
            data.pop(display_only)
        return data


_NOT_IN_JSON = ("fix", "help", "shapes", "source_line", "underline")


@dataclass
class Stats:
    files: int = 0
    parsed: int = 0
    sites: int = 0
    input_shape_known: int = 0
    index_shape_known: int = 0
    both_known: int = 0
    # why a shape was unknown, by the form of the argument: {"input: parameter without a shape": 12}
    blind_spots: Dict[str, int] = field(default_factory=dict)

    def add(self, other: "Stats") -> None:
        for name in self.__dataclass_fields__:
            if name == "blind_spots":
                for key, count in other.blind_spots.items():
                    self.blind_spots[key] = self.blind_spots.get(key, 0) + count
            else:
                setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class FileResult:
    path: str
    findings: List[Finding]
    stats: Stats
