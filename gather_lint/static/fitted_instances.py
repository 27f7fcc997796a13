"""Instances a method returns after storing attributes: `Evaluator(k=10).fit(feats, labels)`.

A method that ends with `return self` (the chaining style of `fit`) hands back the instance with the
attributes it just stored: `self.gallery` is the fitted features, `self.k` the value fit left. The
returned instance carries them as facts (`("self.gallery", fact)` beside the constructor's
arguments), so a later `evaluator.predict(queries)` runs on what fit stored, not only on what
`__init__` built. Only the returned value carries them: a plain `evaluator.fit(...)` statement, whose
effect a loop could repeat, changes nothing.
"""
from __future__ import annotations

import ast
from typing import Dict

from . import attribute_stores
from .modules import InstanceVal

_PREFIX = "self."


def returned(interp, node: ast.Return):
    """The instance a `return self` hands back, with the attributes this method stored; else None."""
    instance = interp.instance
    if not isinstance(node.value, ast.Name) or node.value.id != "self" or instance is None \
            or instance.facts is None or interp.function is None:
        return None
    stored = attribute_stores.stored_names(interp.function)
    facts = dict(instance.facts)
    for name in stored:
        fact = interp.env.get(_PREFIX + name)
        if fact is None:
            facts.pop(_PREFIX + name, None)  # stored, but to something unknown: the old fact is gone
        else:
            facts[_PREFIX + name] = fact
    return InstanceVal(instance.class_name, tuple(sorted(facts.items(), key=lambda kv: kv[0])))


def split(facts: tuple):
    """(the constructor's arguments, {`self.x`: fact} a returning method stored)."""
    built = tuple(kv for kv in facts if not kv[0].startswith(_PREFIX))
    stored: Dict[str, object] = {k: v for k, v in facts if k.startswith(_PREFIX)}
    return built, stored
