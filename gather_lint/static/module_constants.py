"""`NUM_CLASSES = 10` at module level: an ALL-CAPS name bound once to an integer literal is a
constant every function of the module reads (`torch.zeros(n, NUM_CLASSES)`)."""
from __future__ import annotations

import re
from typing import Dict

from ..dims import Sym
from .values import DimVal

_CONSTANT = re.compile(r"^([A-Z][A-Z0-9_]*)\s*(?::\s*int\s*)?=\s*(\d+)\s*(?:#.*)?$", re.MULTILINE)


def constants(text: str) -> Dict[str, DimVal]:
    found: Dict[str, DimVal] = {}
    seen = set()
    for match in _CONSTANT.finditer(text):
        name = match.group(1)
        if name in seen:
            found.pop(name, None)  # bound twice: not a constant
            continue
        seen.add(name)
        found[name] = DimVal(Sym(name, expr=name, size=int(match.group(2))))
    # rebound anywhere else (`global NUM_CLASSES`, `NUM_CLASSES += 1`): not a constant either
    return {k: v for k, v in found.items() if text.count(f"{k} =") + text.count(f"{k}=") <= 1 and f"global {k}" not in text
            and f"{k} +=" not in text}
