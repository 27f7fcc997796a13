"""Methods a class of the file inherits from another class of the file.

`class DuelingQ(QNet)` that only overrides `forward` builds its layers with QNet's `__init__`;
`class Focal(WeightedLoss)` may only add a `forward`. An instance of the subclass then runs the
inherited `__init__` with its constructor arguments (they bind to that `__init__`'s parameters), and
its methods see the attributes that `__init__` built. A subclass with its own `__init__` keeps it;
while that one builds the attributes, its `super().__init__(...)` runs the parent's with the arguments
it passes (`super().__init__([1.0] * n_classes)`).
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


def is_super_init(node: ast.Call) -> bool:
    """`super().__init__(...)` or `super(Child, self).__init__(...)`."""
    func = node.func
    return isinstance(func, ast.Attribute) and func.attr == "__init__" and isinstance(func.value, ast.Call) \
        and isinstance(func.value.func, ast.Name) and func.value.func.id == "super"


def run_parent_init(interp, args: list, kwargs: dict) -> None:
    """While an `__init__` builds attributes (calls.ModuleContext.attributes), its `super().__init__(...)`
    runs the nearest file ancestor's own `__init__` with these arguments, and the attributes that one
    sets become this instance's. Only in that run: elsewhere the call builds nothing the analysis reads."""
    from .calls import _bind, _defaults

    module, here = interp.module, interp.module.class_of.get(interp.function) if interp.module else None
    if here is None or getattr(interp, "_building", None) is None:
        return
    parent = next((p for p in module.lineage.get(here, ())
                   if module.class_of.get(module.methods.get((p, "__init__"))) == p), None)
    init = module.methods.get((parent, "__init__")) if parent else None
    facts = _bind(init, [None] + list(args), kwargs) if init is not None else None
    if facts is None:
        return
    facts.update(_defaults(init, len(args) + 1, kwargs))
    sub = module._make(lambda *a: None, lambda *a: None)
    sub.module, sub.call_depth, sub.class_name, sub._building = module, interp.call_depth, interp.class_name, True
    sub.reports = False  # calls it makes are quiet runs (calls.py)
    sub.run_function(init, facts)
    interp.env.update({k: v for k, v in sub.env.items() if k.startswith("self.") and k.count(".") == 1})
    interp.informal |= sub.informal
