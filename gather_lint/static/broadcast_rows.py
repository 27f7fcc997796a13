"""GL013 for `x[rows, ids] += v` where `rows` is an arange broadcast over each row's entries.

`rows = torch.arange(B).unsqueeze(1).expand_as(ids)` (or `arange(B)[:, None]`, `.view(-1, 1)`,
`.repeat(1, T)`) holds each row number once per entry of the row. The pairs `(rows, ids)` are then
distinct across rows and repeat exactly where `ids` repeats within a row: a token generated twice,
a word counted twice. A plain `arange(B)` (one entry per row) makes every pair distinct, so only a
broadcast one is neutral. The same holds with the roles swapped (`x[ids, cols]`).
"""
from __future__ import annotations

import ast
from typing import Optional

from .normalised_axis import arange_steps
from .values import TensorVal

_BROADCASTS = {"unsqueeze", "expand", "expand_as", "repeat", "view", "reshape", "broadcast_to"}
_MOVES = {"to", "long", "int", "cuda", "cpu", "type_as"}


def is_broadcast_arange(node, function, line: int) -> bool:
    """`torch.arange(n)` followed by an op that adds or widens a dim (a name assigned once from one counts)."""
    steps = arange_steps(node, function, line, _BROADCASTS | _MOVES)
    widened = False
    for step in steps or ():
        if isinstance(step, ast.Subscript):  # arange(B)[:, None]
            elements = step.slice.elts if isinstance(step.slice, ast.Tuple) else [step.slice]
            if not any(isinstance(e, ast.Constant) and e.value is None for e in elements):
                return False
        widened = widened or isinstance(step, ast.Subscript) or step in _BROADCASTS
    return widened


def paired_index(interp, elements, line: int) -> Optional[ast.AST]:
    """For `x[a, b]` where one of a, b is a broadcast arange: the other one, whose repeats decide."""
    if len(elements) != 2:
        return None
    ranges = [is_broadcast_arange(e, interp.function, line) for e in elements]
    if ranges.count(True) != 1:
        return None
    return elements[ranges.index(False)]


def several_per_row(index) -> bool:
    """The paired index has (or may have) more than one entry per row: [B, T] with T not 1."""
    shape = index.shape if isinstance(index, TensorVal) else None
    if shape is None or shape.variadic:
        return True
    return len(shape.dims) >= 2 and shape.dims[-1] != 1
