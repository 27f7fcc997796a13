"""`NUM_CLASSES = 10`, `PAD_TAG = -1`, `pad_id = 0` at module level: a name bound once to an integer literal, or an
ALL-CAPS name bound to integer arithmetic of such names (`NUM_TILES = GRID * GRID`), is a constant every function
of the module reads (`torch.zeros(n, NUM_CLASSES)`)."""
from __future__ import annotations

import ast
import itertools
import operator
import re
from typing import Dict, Optional

from ..dims import Sym
from .values import DimVal

_CONSTANT = re.compile(r"^([A-Z][A-Z0-9_]*)\s*(?::\s*int\s*)?=\s*(-?\d+|[A-Z0-9_ +*/()-]*[A-Z][A-Z0-9_ +*/()-]*?)\s*(?:#.*)?$",
                       re.MULTILINE)
_INT_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
            ast.Pow: operator.pow}


# any other name bound at module level to an integer literal (`pad_id = -1`): a constant as much, whatever its spelling
_LOWER_CONSTANT = re.compile(r"([a-z_][A-Za-z0-9_]*)\s*(?::\s*int\s*)?=\s*(-?\d+)\s*(?:#.*)?$", re.MULTILINE)
_CAPITAL_LINE = re.compile(r"\n(?=[A-Z])")  # led by a literal: the engine jumps from line to line
_LOWER_LINE = re.compile(r"\n(?=[a-z_][A-Za-z0-9_]*\s*(?::\s*int\s*)?=\s*-?\d)")


# `PATCH, MERGE, HIDDEN = 14, 2, 48`: names bound together to integer literals, whatever their spelling
_CONSTANTS_TOGETHER = re.compile(r"([A-Za-z_]\w*(?:[ \t]*,[ \t]*[A-Za-z_]\w*)+)[ \t]*=[ \t]*"
                                 r"(-?\d+(?:[ \t]*,[ \t]*-?\d+)+)[ \t]*(?:#.*)?$", re.MULTILINE)
_TOGETHER_LINE = re.compile(r"\n(?=[a-z_]\w*[ \t]*,)")  # a lower-case line binding several names: tried there only


class _Bound:
    """One name of a `A, B = 1, 2` line, read as _CONSTANT's match is: group(1) the name, group(2) the number."""

    def __init__(self, name: str, number: str):
        self._groups = (name, number)

    def group(self, k: int) -> str:
        return self._groups[k - 1]


def _matches(text: str):
    """_CONSTANT's matches, tried only at lines that start with a capital (a `^` pattern is tried at every
    character of the file), and each name of a line binding several to numbers."""
    starts = ([0] if text[:1].isupper() else []) + [m.end() for m in _CAPITAL_LINE.finditer(text)]
    for start in starts:
        match = _CONSTANT.match(text, start)
        if match is not None:
            yield match
            continue
        yield from _together(text, start)


def _together(text: str, start: int):
    """The names a `A, B = 1, 2` line at `start` binds, each with its number."""
    together = _CONSTANTS_TOGETHER.match(text, start)
    if together is not None:
        names = [n.strip() for n in together.group(1).split(",")]
        numbers = [n.strip() for n in together.group(2).split(",")]
        if len(names) == len(numbers):
            yield from (_Bound(n, v) for n, v in zip(names, numbers))


def _lower_matches(text: str):
    """_LOWER_CONSTANT's matches, at the lines that bind a name to a number, and each name of a lower-case line
    binding several to numbers."""
    starts = ([0] if _LOWER_CONSTANT.match(text) else []) + [m.end() for m in _LOWER_LINE.finditer(text)]
    for start in starts:
        match = _LOWER_CONSTANT.match(text, start)
        if match is not None:
            yield match
    for start in (m.end() for m in _TOGETHER_LINE.finditer(text)):
        yield from _together(text, start)


def constants(text: str) -> Dict[str, DimVal]:
    found: Dict[str, DimVal] = {}
    seen = set()
    for match in itertools.chain(_matches(text), _lower_matches(text)):
        name = match.group(1)
        if name in seen:
            found.pop(name, None)  # bound twice: not a constant
            continue
        seen.add(name)
        literal = match.group(2).lstrip("-")
        size = int(match.group(2)) if literal.isdigit() else _evaluated(match.group(2), found)
        if size is not None:
            found[name] = DimVal(Sym(name, expr=name, size=size))
    # rebound anywhere else (`global NUM_CLASSES`, `NUM_CLASSES += 1`): not a constant either
    return {k: v for k, v in found.items() if text.count(f"{k} =") + text.count(f"{k}=") <= 1 and f"global {k}" not in text
            and f"{k} +=" not in text and f"for {k} in" not in text and f"{k} -=" not in text}


def _evaluated(text: str, known: Dict[str, DimVal]) -> Optional[int]:
    """`GRID * GRID`, `2 ** DEPTH`: integer arithmetic of constants bound above it; None for anything else."""
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None

    def value(node) -> Optional[int]:
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name) and node.id in known:
            return known[node.id].dim.size
        if isinstance(node, ast.BinOp) and type(node.op) in _INT_OPS:
            left, right = value(node.left), value(node.right)
            if left is None or right is None or (isinstance(node.op, ast.FloorDiv) and right == 0) \
                    or (isinstance(node.op, ast.Pow) and not 0 <= right <= 64):
                return None
            return _INT_OPS[type(node.op)](left, right)
        return None
    return value(tree)
