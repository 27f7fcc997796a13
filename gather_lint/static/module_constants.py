"""`NUM_CLASSES = 10` at module level: an ALL-CAPS name bound once to an integer literal is a
constant every function of the module reads (`torch.zeros(n, NUM_CLASSES)`)."""
from __future__ import annotations

import re
from typing import Dict

from ..dims import Sym
from .values import DimVal

_CONSTANT = re.compile(r"^([A-Z][A-Z0-9_]*)\s*(?::\s*int\s*)?=\s*(\d+)\s*(?:#.*)?$", re.MULTILINE)


_CAPITAL_LINE = re.compile(r"\n(?=[A-Z])")  # led by a literal: the engine jumps from line to line


def _matches(text: str):
    """_CONSTANT's matches, tried only at lines that start with a capital (a `^` pattern is tried at every
    character of the file)."""
    starts = ([0] if text[:1].isupper() else []) + [m.end() for m in _CAPITAL_LINE.finditer(text)]
    for start in starts:
        match = _CONSTANT.match(text, start)
        if match is not None:
            yield match


def constants(text: str) -> Dict[str, DimVal]:
    found: Dict[str, DimVal] = {}
    seen = set()
    for match in _matches(text):
        name = match.group(1)
        if name in seen:
            found.pop(name, None)  # bound twice: not a constant
            continue
        seen.add(name)
        found[name] = DimVal(Sym(name, expr=name, size=int(match.group(2))))
    # rebound anywhere else (`global NUM_CLASSES`, `NUM_CLASSES += 1`): not a constant either
    return {k: v for k, v in found.items() if text.count(f"{k} =") + text.count(f"{k}=") <= 1 and f"global {k}" not in text
            and f"{k} +=" not in text}
