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
from .values import JOINERS

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
    if _straight_line(interp, node) or _only_grown(held, fitted):
        interp.env[name] = fitted
    elif split(held.facts)[1]:
        interp.env[name] = InstanceVal(held.class_name, split(held.facts)[0])


def assigned(interp, target: ast.Attribute, fact) -> None:
    """`req.output_ids = [11, 9, 4]` on a known instance: what its methods read as `self.output_ids` from now
    on, in straight-line code; in a loop or a branch the attribute is no longer known."""
    if not isinstance(target.value, ast.Name) or interp.module is None:
        return
    name = target.value.id
    held = interp.env.get(name)
    if not isinstance(held, InstanceVal) or held.facts is None:
        return
    key = _PREFIX + target.attr
    facts = {k: v for k, v in held.facts if k != key and k != target.attr}
    straight = any(isinstance(stmt, ast.Assign) and any(t is target for t in stmt.targets) for stmt in _bodies(interp))
    facts[key] = fact if straight else None
    interp.env[name] = InstanceVal(held.class_name, tuple(sorted(facts.items(), key=lambda kv: kv[0])))


def _bodies(interp):
    """The statements of the function's own body, or of the module body and its `__main__` block."""
    if interp.function is not None:
        return interp.function.body
    tree = interp.module.tree
    return [stmt for body in [tree.body] + [top.body for top in tree.body if script_drivers.is_guard(top)]
            for stmt in body]


def _only_grown(held: InstanceVal, fitted: InstanceVal) -> bool:
    """`replay.push(s, a, r)` in a loop: the method only grew lists of like items (`self.buffer.append(...)`),
    which hold the same facts after one run or many (none leaves the list as __init__ made it, which an
    append of like items joins)."""
    from .tensor_ops import Repeated

    before, after = split(held.facts)[1], split(fitted.facts)[1]
    changed = [key for key in after if before.get(key) != after[key]]
    return bool(changed) and all(isinstance(after[key], Repeated) for key in changed) \
        and all(key in after for key in before)


def _stored_elsewhere(module, class_name: str, function) -> set:
    """Attributes the class's methods other than `function` and `__init__` store."""
    return {name for cls in module.class_and_bases(class_name) for method in cls.body
            if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and method is not function
            and method.name != "__init__" for name in attribute_stores.stored_names(method)}


def _straight_line(interp, node) -> bool:
    """A statement of the function's own body, or of the module body or its `__main__` block."""
    return any(stmt is node for stmt in _bodies(interp))


def split(facts: tuple):
    """(the constructor's arguments, {`self.x`: fact} a returning method stored)."""
    built = tuple(kv for kv in facts if not kv[0].startswith(_PREFIX))
    stored: Dict[str, object] = {k: v for k, v in facts if k.startswith(_PREFIX)}
    return built, stored


def _joined_instances(a, b):
    """Two paths' instances of one class built alike (a loop that ran `replay.push(...)` or not): the stored
    facts both agree on, and a list grown on one path (its other path holds the empty list __init__ made)."""
    from .tensor_ops import Repeated
    from .tensor_lists import joined
    from .values import join

    if not isinstance(a, InstanceVal) or not isinstance(b, InstanceVal) or a.class_name != b.class_name \
            or a.facts is None or b.facts is None:
        return None
    (built, mine), (other_built, theirs) = split(a.facts), split(b.facts)
    if built != other_built:
        return None
    stored = {}
    for key in mine.keys() | theirs.keys():
        x, y = mine.get(key), theirs.get(key)
        if x is None or y is None:
            kept = x if x is not None else y
            value = kept if isinstance(kept, Repeated) else None
        else:
            value = join(x, y) or joined(x, y)
        if value is not None:
            stored[key] = value
    return InstanceVal(a.class_name, tuple(sorted(built + tuple(stored.items()), key=lambda kv: kv[0])))


JOINERS[InstanceVal] = _joined_instances
