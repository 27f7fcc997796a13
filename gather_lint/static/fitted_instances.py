"""Instances a method returns after storing attributes: `Evaluator(k=10).fit(feats, labels)`.

A method that ends with `return self` (the chaining style of `fit`) hands back the instance with the
attributes it just stored: `self.gallery` is the fitted features, `self.k` the value fit left. The
returned instance carries them as facts (`("self.gallery", fact)` beside the constructor's
arguments), so a later `evaluator.predict(queries)` runs on what fit stored, not only on what
`__init__` built. A plain `evaluator.fit(...)` statement does the same for the name it is called on,
in straight-line code only: in a loop or a branch it may run again, or not at all.
"""
from __future__ import annotations

import ast
from typing import Dict

from . import attribute_stores, script_drivers
from .modules import InstanceVal

_PREFIX = "self."


def returned(interp, node: ast.Return):
    """The instance a `return self` hands back, with the attributes this method stored; else None."""
    if not isinstance(node.value, ast.Name) or node.value.id != "self":
        return None
    return stored(interp)


def stored(interp):
    """The instance whose method `interp` runs, with the attributes the method has stored so far;
    None when it is no known instance's method or stores nothing."""
    instance = interp.instance
    if instance is None or instance.facts is None or interp.function is None:
        return None
    names = attribute_stores.stored_names(interp.function)
    if not names:
        return None
    # an attribute another method stores too (`add` growing the bank) may have changed since: not kept
    others = _stored_elsewhere(interp.module, instance.class_name, interp.function)
    names = [name for name in names if name not in others]
    facts = dict(instance.facts)
    for name in names:
        fact = interp.env.get(_PREFIX + name)
        if fact is None:
            facts.pop(_PREFIX + name, None)  # stored, but to something unknown: the old fact is gone
        else:
            facts[_PREFIX + name] = fact
    return InstanceVal(instance.class_name, tuple(sorted(facts.items(), key=lambda kv: kv[0])))


def after_statement(interp, node: ast.Expr) -> None:
    """`evaluator.fit(feats, labels)` as a statement of straight-line code: the name now holds the fitted
    instance. In a loop or a branch, which could run it again or not at all, what an earlier fit
    stored is forgotten instead."""
    call = node.value
    if interp.module is None or not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) \
            or not isinstance(call.func.value, ast.Name):
        return
    fitted = interp.module.fitted_at.get(id(call))
    name = call.func.value.id
    held = interp.env.get(name)
    if fitted is None or not isinstance(held, InstanceVal) or held.facts is None:
        return
    if _straight_line(interp, node):
        interp.env[name] = fitted
    elif split(held.facts)[1]:
        interp.env[name] = InstanceVal(held.class_name, split(held.facts)[0])


def _stored_elsewhere(module, class_name: str, function) -> set:
    """Attributes the class's methods other than `function` and `__init__` store."""
    lineage = [module.classes[class_name]] + [module.classes[p] for p in module.lineage.get(class_name, ())
                                              if p in module.classes]
    return {name for cls in lineage for method in cls.body
            if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and method is not function
            and method.name != "__init__" for name in attribute_stores.stored_names(method)}


def _straight_line(interp, node) -> bool:
    """A statement of the function's own body, or of the module body or its `__main__` block."""
    if interp.function is not None:
        return any(stmt is node for stmt in interp.function.body)
    tree = interp.module.tree
    bodies = [tree.body] + [top.body for top in tree.body if script_drivers.is_guard(top)]
    return any(stmt is node for body in bodies for stmt in body)


def split(facts: tuple):
    """(the constructor's arguments, {`self.x`: fact} a returning method stored)."""
    built = tuple(kv for kv in facts if not kv[0].startswith(_PREFIX))
    stored: Dict[str, object] = {k: v for k, v in facts if k.startswith(_PREFIX)}
    return built, stored
