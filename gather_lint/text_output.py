"""The default text output: a finding as compilers show one.

    model.py:4:14: GL005 index `idx.unsqueeze(1)` [K, 1] has size 1 on dim 1 (128) of input ...
      |
    4 | rows = torch.gather(features, 0, idx.unsqueeze(1))
      |                                  ^^^^^^^^^^^^^^^^
      = input   features          [N, D]
      = index   idx.unsqueeze(1)  [K, 1]
      = result                    [K, 1]
      = help: expand the index with `.expand(-1, 128)` ...
"""
from __future__ import annotations

from typing import List

from .finding_line import BOLD, COLOURS, RESET, text_line
from .findings import Finding
from .notes import headline

_HELP_COLOUR = "\033[36m"


def finding_block(f: Finding, colour: bool = False) -> str:
    """The finding's lines, ending with a blank line that separates it from the next."""
    paint = _painter(colour)
    lines = [text_line(f, colour, headline(f.message, f.help))]
    shown_line = f.line + (f.underline[0] if f.underline else 0)
    gutter = " " * len(str(shown_line))
    if f.source_line is not None and f.underline is not None:
        # tabs as single spaces keep the carets under the characters they mark
        text = f.source_line.replace("\t", " ").rstrip()
        _, col, end_col = f.underline
        carets = "^" * max(1, min(end_col, len(text) + 1) - col)
        lines += [f"{gutter} |", f"{shown_line} | {text}",
                  f"{gutter} | {' ' * (col - 1)}{paint(carets, COLOURS.get(f.severity, ''))}"]
    lines += _shape_rows(f, gutter)
    if f.help:
        lines.append(f"{gutter} = {paint('help', _HELP_COLOUR + BOLD)}: {f.help}")
    return "\n".join(lines) + "\n"


def _shape_rows(f: Finding, gutter: str) -> List[str]:
    """`label  expression  shape`, in columns as wide as their widest entry."""
    if not f.shapes:
        return []
    label_width = max(len(label) for label, _, _ in f.shapes)
    expr_width = max(len(expr) for _, expr, _ in f.shapes)
    return [f"{gutter} = {label:{label_width}}  {expr:{expr_width}}  {shape}".rstrip() for label, expr, shape in f.shapes]


def _painter(colour: bool):
    def paint(text: str, code: str) -> str:
        return f"{code}{text}{RESET}" if colour and code else text

    return paint
