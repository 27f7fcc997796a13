"""`{k: v.to(device, dtype) for k, v in batch.items()}`: a batch dict mapped tensor by tensor (moved,
cast, detached) keeps its keys, and each item gets what the method makes of it. A cast of the whole
batch to the model's dtype then reaches the label ids inside it (`batch["labels"]` is bf16), where an
index must be an integer.

Only a single `for k, v in d.items()` over a dict whose keys are known, with a value computed from
`v` (`v.to(dtype)`, `v[idx]`, `v * mask`, `f(v)`): the value expression is run once per item with that
item bound. So is `for k in d` (or `d.keys()`) with a value computed from the key, the way a collate
function stacks each key of its records: `{k: torch.stack([it[k] for it in items]) for k in items[0]}`.
"""
from __future__ import annotations

import ast
from typing import Optional

from .config import DictVal, _kept
from .values import Literal


def mapped(interp, node: ast.DictComp) -> Optional[DictVal]:
    if len(node.generators) != 1:
        return None
    gen = node.generators[0]
    target, it, value = gen.target, gen.iter, node.value
    if gen.ifs:
        return None
    if isinstance(target, ast.Tuple) and len(target.elts) == 2 and all(isinstance(e, ast.Name) for e in target.elts):
        key_name, item_name = target.elts[0].id, target.elts[1].id
        if not (_called(it, "items") and _reads(value, item_name)):
            return None  # the cheap syntax test first
        owner = it.func.value
    elif isinstance(target, ast.Name):  # `{k: torch.stack([it[k] for it in items]) for k in items[0]}`: its keys
        key_name, item_name = target.id, None
        owner = it.func.value if _called(it, "keys") else it
        if not _reads(value, key_name):
            return None
    else:
        return None
    if not (isinstance(node.key, ast.Name) and node.key.id == key_name):
        return None
    source = interp.expr(owner)
    if not isinstance(source, DictVal):
        return None
    saved = dict(interp.env)
    items = []
    for key, item in source.items:
        interp.env[key_name] = Literal(key)
        if item_name is not None:
            interp.env[item_name] = item
        items.append((key, _kept(interp.expr(value)) if item is not None or item_name is None else None))
    interp.env = saved
    return DictVal(tuple(items), source.closed)


def _called(node, method: str) -> bool:
    """`d.items()`, `d.keys()`: a method of no arguments."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == method \
        and not node.args and not node.keywords


def _reads(value, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(value))
