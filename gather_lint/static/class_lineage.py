"""Methods a class of the file inherits from another class of the file.

`class DuelingQ(QNet)` that only overrides `forward` builds its layers with QNet's `__init__`;
`class Focal(WeightedLoss)` may only add a `forward`. An instance of the subclass then runs the
inherited `__init__` with its constructor arguments (they bind to that `__init__`'s parameters), and
its methods see the attributes that `__init__` built. A subclass with its own `__init__` keeps it:
what it passes to `super().__init__` is not followed, so the parent's attributes stay unknown there.
"""
from __future__ import annotations

import ast
from typing import Dict, List

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def ancestors(cls: ast.ClassDef, classes: Dict[str, ast.ClassDef]) -> List[str]:
    """The file's classes `cls` derives from, nearest first (depth-first over its bases, as Python's
    method resolution order does for single inheritance)."""
    found: List[str] = []
    todo = [b.id for b in cls.bases if isinstance(b, ast.Name)]
    while todo:
        name = todo.pop(0)
        if name in classes and name not in found and name != cls.name:
            found.append(name)
            todo[:0] = [b.id for b in classes[name].bases if isinstance(b, ast.Name)]
    return found


def inherit(classes: Dict[str, ast.ClassDef], methods: Dict[tuple, ast.AST]) -> Dict[str, List[str]]:
    """Add `(subclass, name) -> method` for every method a subclass inherits; return the ancestors."""
    lineage = {name: ancestors(cls, classes) for name, cls in classes.items()}
    own = {name: {n.name for n in cls.body if isinstance(n, _DEFS)} for name, cls in classes.items()}
    for name, chain in lineage.items():
        for parent in chain:
            for method in own[parent]:
                methods.setdefault((name, method), methods[(parent, method)])
    return lineage
