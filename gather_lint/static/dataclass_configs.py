"""Instances of the file's @dataclass configs: `cfg = Config(n_act=6)`; `cfg.n_act` is 6, `cfg.hidden`
its class default. Sizes held in a config object reach the layers and tensors built from it."""
from __future__ import annotations

import ast
from typing import Dict, Optional

from .values import DimVal, Literal, SeqVal, TensorVal

_PLAIN = (DimVal, Literal, SeqVal, TensorVal)  # a record of tensors (a batch, a request item) too


def is_dataclass(cls: ast.ClassDef) -> bool:
    for decorator in cls.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
        if name == "dataclass":
            return True
    return False


def fields(cls: ast.ClassDef):
    """(name, default expression or None) of each annotated class-level field, in order."""
    for stmt in cls.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and not _is_class_var(stmt.annotation):
            yield stmt.target.id, stmt.value


def bind(cls: ast.ClassDef, args: list, kwargs: dict, evaluate) -> Optional[tuple]:
    """The instance's known field values, sorted by name: constructor arguments by position and name
    over the class defaults. None when the call does not fit the fields (torch code then raises)."""
    names = [name for name, _ in fields(cls)]
    if len(args) > len(names) or any(k not in names for k in kwargs):
        return None
    values: Dict[str, object] = {}
    for name, default in fields(cls):
        if default is not None and not _is_factory(default):
            values[name] = evaluate(default)
    values.update(zip(names, args))
    values.update(kwargs)
    return tuple(sorted((k, v) for k, v in values.items() if isinstance(v, _PLAIN)))


def _is_class_var(annotation) -> bool:
    text = ast.unparse(annotation)
    return text.startswith("ClassVar") or text.startswith("typing.ClassVar")


def _is_factory(default) -> bool:
    """field(default_factory=...) and other calls: no plain default to read."""
    return isinstance(default, ast.Call)
