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
import re
from typing import Dict, List

from . import tree_walk
from .argument_binding import bind, number_defaults

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


def overridden_below(module, class_name: str, method: str) -> bool:
    """Whether a class of the file deriving from `class_name` defines its own `method`: `self.aggregation(x)` in
    a base class's forward runs the override of whichever subclass the instance is (tree models whose base
    returns x as it is and whose subclasses sum the trees), so the base's own body is not what the call gives.
    Read from the whole file's text: the analysed tree keeps only the blocks that name an op."""
    classes = module.__dict__.get("_file_classes")
    if classes is None:
        classes = module.__dict__["_file_classes"] = _file_classes(module)
    below, todo = set(), [class_name]
    while todo:
        parent = todo.pop()
        for name, (bases, _) in classes.items():
            if parent in bases and name not in below and name != class_name:
                below.add(name)
                todo.append(name)
    return any(method in defined() for defined in (classes[name][1] for name in below))


_CLASS_HEAD = re.compile(r"^class\s+(\w+)\s*\(([^)]*)\)\s*:", re.M)
_METHOD = re.compile(r"^[ \t]+(?:async\s+)?def\s+(\w+)", re.M)


def _file_classes(module) -> Dict[str, tuple]:
    """{class name: (the last names of its bases, the names it defines, read when asked)} for every class of the
    file (most classes have no subclass in the file, and their methods are never read)."""
    blocks = getattr(module.tree, "file_blocks", None)
    if blocks is None:  # the file parsed whole: its classes are the module's
        return {name: ({tree_walk.last_name(b) for b in cls.bases},
                       lambda cls=cls: {n.name for n in cls.body if isinstance(n, _DEFS)})
                for name, cls in module.classes.items()}
    found: Dict[str, tuple] = {}
    for i, first in enumerate(blocks.starts):
        # a block starts at its own head or at the decorators above it: a class block's head is among its
        # first lines (the others are not cut out of the text at all)
        heads = [line for line in blocks.lines[first:min(first + 4, blocks.ends[i])] if line.startswith("class ")]
        if not heads:
            continue
        chunk = blocks.chunk(i)
        at = chunk.find(heads[0])
        head = _CLASS_HEAD.match(chunk, at) if at != -1 else None
        if head is not None:
            bases = {b.strip().split(".")[-1] for b in head.group(2).split(",") if b.strip()}
            found[head.group(1)] = (bases, lambda chunk=chunk: set(_METHOD.findall(chunk)))
    return found


def is_super_init(node: ast.Call) -> bool:
    """`super().__init__(...)` or `super(Child, self).__init__(...)`."""
    func = node.func
    return isinstance(func, ast.Attribute) and func.attr == "__init__" and isinstance(func.value, ast.Call) \
        and isinstance(func.value.func, ast.Name) and func.value.func.id == "super"


def run_parent_init(interp, args: list, kwargs: dict) -> None:
    """While an `__init__` builds attributes (calls.ModuleContext.attributes), its `super().__init__(...)`
    runs the nearest file ancestor's own `__init__` with these arguments, and the attributes that one
    sets become this instance's. Only in that run: elsewhere the call builds nothing the analysis reads."""
    module, here = interp.module, interp.module.class_of.get(interp.function) if interp.module else None
    if here is None or getattr(interp, "_building", None) is None:
        return
    parent = next((p for p in module.lineage.get(here, ())
                   if module.class_of.get(module.methods.get((p, "__init__"))) == p), None)
    init = module.methods.get((parent, "__init__")) if parent else None
    facts = bind(init, [None] + list(args), kwargs) if init is not None else None
    if facts is None:
        return
    facts.update(number_defaults(init, len(args) + 1, kwargs))
    sub = module._make(lambda *a: None, lambda *a: None)
    sub.module, sub.call_depth, sub.class_name, sub._building = module, interp.call_depth, interp.class_name, True
    sub.reports = False  # calls it makes are quiet runs (calls.py)
    sub.run_function(init, facts)
    interp.env.update({k: v for k, v in sub.env.items() if k.startswith("self.") and k.count(".") == 1})
    interp.informal |= sub.informal


def binds_first(method) -> bool:
    """Whether a call through the class or an instance binds the method's first parameter itself (`self`,
    or `cls` of a @classmethod); a @staticmethod takes the call's arguments as they are."""
    return not any(tree_walk.last_name(d) == "staticmethod" for d in getattr(method, "decorator_list", ()))


def is_classmethod(method) -> bool:
    return any(tree_walk.last_name(d) == "classmethod" for d in getattr(method, "decorator_list", ()))


def through_class(interp, func: ast.Attribute):
    """The method a call through a class of the file names (`Ops.f(x)`, `cls.f(x)` in a @classmethod), when it
    needs no instance: a @staticmethod or a @classmethod; None otherwise (a plain method needs its `self`
    passed, and a name the scope binds to a known value or takes as a parameter is not the class)."""
    if not isinstance(func.value, ast.Name) or interp.module is None:
        return None
    name = func.value.id
    if name == "cls" and interp.class_name is not None and is_classmethod(getattr(interp, "function", None)):
        name = interp.class_name
    elif interp.env.get(name) is not None or name in interp.params or name not in interp.module.classes \
            or name in _rebound_classes(interp.module):
        return None
    method = interp.module.methods.get((name, func.attr))
    return method if method is not None and (not binds_first(method) or is_classmethod(method)) else None


def _rebound_classes(module) -> frozenset:
    """The file's class names that its code also binds to something else (`Ops = Other`, a parameter named
    so): a call through such a name may not reach the class. Read once per module."""
    found = getattr(module, "_rebound_classes", None)
    if found is None:
        found = frozenset(
            name for node in tree_walk.all_nodes(module.tree) for name in (
                (node.id,) if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)
                else (node.arg,) if isinstance(node, ast.arg) else ())
            if name in module.classes)
        module._rebound_classes = found
    return found
