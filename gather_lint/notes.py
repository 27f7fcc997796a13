"""What the readable text output shows with a finding: its source line, the shapes at the call, the fix.

Rules write one-line messages, `problem; fix` (flake8, JSON and SARIF print them whole). The text
output splits the fix off as `help` and lists the shapes of input, index, src and result.
"""
from __future__ import annotations

from typing import Optional, Tuple

from .contract import Site, TensorInfo, gather_axis, ranked_pair
from .dims import Shape
from .ops import GATHER, INDEX, SCATTER

# A message's last clause is its fix when it starts with one of these verbs ("expand the index with ...").
_FIX_VERBS = {"add", "expand", "use", "squeeze", "convert", "make", "replace", "pass", "keep", "accumulate",
              "move", "mask", "flatten", "cast", "call", "unsqueeze", "clamp", "index", "select"}


def fix_sentence(message: str) -> Optional[str]:
    """The fix at the end of a rule message, or None when the message does not end with one."""
    head, sep, last = message.rpartition("; ")
    if not sep or not head:
        return None
    first = last.split(" ", 1)[0].lower()
    return last if first in _FIX_VERBS else None


def headline(message: str, help_text: Optional[str]) -> str:
    """The message without its fix sentence, which the text output prints on its own line."""
    if help_text and message.endswith(help_text) and len(message) > len(help_text):
        return message[: -len(help_text)].rstrip("; ")
    return message


def site_shapes(site: Site) -> Tuple[Tuple[str, str, str], ...]:
    """(label, expression, shape) rows for the tensors at a call whose shapes are known."""
    rows = []
    index_role = "indices" if site.op.index_param == "indices" else "index"
    for label, info in (("input", site.input), (index_role, site.index), (_payload_role(site), site.payload)):
        if info is not None and info.shape is not None:
            rows.append((label, _expression(info), str(info.shape)))
    result = result_shape(site)
    if result is not None and rows:
        rows.append(("result", "", str(result)))
    return tuple(rows)


def _payload_role(site: Site) -> str:
    return "src" if site.op.family == SCATTER else "source"


def _expression(info: TensorInfo) -> str:
    return "" if info.text in ("tensor", "input", "index", "src", "source", "self") else info.text


def result_shape(site: Site) -> Optional[Shape]:
    """The shape the call returns, when the contract makes it plain; None otherwise."""
    family = site.op.family
    if family == GATHER:
        return site.index.shape if ranked_pair(site) is not None else None
    if family == SCATTER:
        return site.input.shape if ranked_pair(site) is not None else None
    if family == INDEX:
        axis, idx = gather_axis(site), site.index.shape
        if axis is None or idx is None or idx.variadic or len(idx.dims) > 1:
            return None
        if site.op.name != "index_select":
            return site.input.shape  # index_add_/index_copy_/index_fill_ keep self's shape
        count = idx.dims[0] if idx.dims else 1
        dims = list(site.input.shape.dims)
        dims[axis] = count
        return Shape(tuple(dims))
    return None  # take_along_dim broadcasts: its result is not worth guessing here


def shown_source(source, line: int, span, index) -> dict:
    """Finding fields for the line to show and what to underline on it: the index expression when it
    fits on one line (in a call written over several lines, that can be a later line), else the
    finding's own `span` (column, end column or None) on its line, to the line's end when the call goes on."""
    if index is not None and getattr(index, "end_lineno", None) == index.lineno and index.lineno >= line:
        shown = index.lineno
        col = source.char_col(shown, index.col_offset) + 1
        end_col = source.char_col(shown, index.end_col_offset) + 1
    else:
        shown, (col, end_col) = line, span
    if not 1 <= shown <= len(source.lines):
        return {}
    text = source.lines[shown - 1]
    if end_col is None or end_col <= col:
        end_col = len(text.rstrip()) + 1
    return {"source_line": text, "underline": (shown - line, col, max(end_col, col + 1))}
