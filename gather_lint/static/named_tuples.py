"""Instances of the file's `typing.NamedTuple` classes: `Output(logits=x, loss=l)` is a tuple whose
items have names, so `out.logits`, `out[0]` and `logits, loss = out` all give the tensor passed in."""
from __future__ import annotations

import ast
from typing import Optional

from .values import SeqVal


def is_named_tuple(cls: ast.ClassDef) -> bool:
    return any((isinstance(base, ast.Name) and base.id == "NamedTuple")
               or (isinstance(base, ast.Attribute) and base.attr == "NamedTuple") for base in cls.bases)


def build(cls: ast.ClassDef, args: list, kwargs: dict, evaluate) -> Optional[SeqVal]:
    """The tuple a call of the class makes; None when the call does not fit its fields."""
    fields = [(stmt.target.id, stmt.value) for stmt in cls.body
              if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)]
    names = [name for name, _ in fields]
    if not fields or len(args) > len(names) or any(k not in names for k in kwargs):
        return None
    given = dict(zip(names, args))
    if any(k in given for k in kwargs):
        return None  # a field given twice: torch code never gets here
    given.update(kwargs)
    items = []
    for name, default in fields:
        if name in given:
            items.append(given[name])
        elif default is not None:
            items.append(evaluate(default))
        else:
            return None  # a missing field: the call raises
    return SeqVal(tuple(items), tuple(names))
