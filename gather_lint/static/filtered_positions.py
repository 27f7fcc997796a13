"""GL011: entries picked at positions a list keeps only where the entry is not padding.

`keep = [k for k in range(n) if k < L and int(cols[k].item()) >= 0]`, then `cols[torch.tensor(keep)]`:
every position listed passed a test that the padding value -1 fails, so the picked entries hold no -1,
whatever else is unknown about the list (its length, its values). The test is read as sentinel_masks
reads a mask: a comparison of the entry with a number, in one of the comprehension's `if`s or `and`
terms; the entry is `cols[k]`, as a tensor, through `.item()` or `int()`/`float()`.
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Optional

from . import sentinel_masks, tree_walk
from .values import TensorVal

_TO_TENSOR = ("tensor", "as_tensor", "LongTensor", "IntTensor")
_CASTS = ("long", "int", "to", "cuda", "cpu")


def after(interp, node: ast.Subscript, picked):
    """`picked`, the value of `node` (`x[key]`), without its padding value when the key lists positions
    whose entries of x were each tested not to be padding."""
    domain = picked.domain if isinstance(picked, TensorVal) else None
    if domain is None or domain.sentinel is None:
        return picked
    function = getattr(interp, "function", None)
    listed = _listed_positions(node.slice, function)
    if listed is None or not _excludes(listed, node.value, domain.sentinel):
        return picked
    return picked.with_(domain=replace(domain, sentinel=None, sentinel_line=None))


def _listed_positions(key: ast.AST, function) -> Optional[ast.ListComp]:
    """The comprehension a key is made from: `torch.tensor(comp or name)`, possibly cast, possibly named."""
    for _ in range(4):
        if isinstance(key, ast.Name):
            key = _binding_reaching(function, key)
        elif isinstance(key, ast.Call) and isinstance(key.func, ast.Attribute) and key.func.attr in _CASTS \
                and not isinstance(key.func.value, ast.Name):
            key = key.func.value  # torch.tensor(keep).long(), .to(device)
        elif isinstance(key, ast.Call) and isinstance(key.func, ast.Attribute) and key.func.attr in _TO_TENSOR \
                and isinstance(key.func.value, ast.Name) and key.func.value.id == "torch" and key.args:
            key = key.args[0]
        else:
            break
        if key is None:
            return None
    return key if isinstance(key, ast.ListComp) else None


def _binding_reaching(function, use: ast.Name) -> Optional[ast.AST]:
    """The value of the last `name = ...` above the use, when that is a plain assignment and no later
    binding in a loop around the use can reach it on the next turn (two loops of one test may each
    bind `keep`, and each use reads its own loop's list)."""
    if function is None:
        return None
    parents = {}
    bindings = []
    for node in tree_walk.all_nodes(function):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.NamedExpr)) else []
        if any(isinstance(n, ast.Name) and n.id == use.id for t in targets for n in ast.walk(t)):
            bindings.append(node)
    if id(use) not in parents:
        return None
    before = [b for b in bindings if b.lineno < use.lineno]
    if not before:
        return None
    last = max(before, key=lambda b: b.lineno)
    loops, node = [], use
    while id(node) in parents:
        node = parents[id(node)]
        if isinstance(node, (ast.For, ast.While)):
            loops.append(node)
    for later in (b for b in bindings if b.lineno >= use.lineno):
        if any(later in _descendants(loop) for loop in loops):
            return None
    if not (isinstance(last, ast.Assign) and len(last.targets) == 1 and isinstance(last.targets[0], ast.Name)):
        return None
    return last.value


def _descendants(node: ast.AST) -> list:
    return tree_walk.all_nodes(node)


def _excludes(comp: ast.ListComp, owner: ast.AST, sentinel: int) -> bool:
    """Whether `[k for k in ... if ...]` lists only positions k whose `owner[k]` is tested not to be padding."""
    if len(comp.generators) != 1:
        return False
    gen = comp.generators[0]
    if not (isinstance(gen.target, ast.Name) and isinstance(comp.elt, ast.Name) and comp.elt.id == gen.target.id):
        return False
    terms = []
    for test in gen.ifs:
        terms.extend(test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test])
    for term in terms:
        if not isinstance(term, ast.Compare) or len(term.ops) != 1:
            continue
        for side in (term.left, term.comparators[0]):
            if _entry(side, owner, gen.target.id) and sentinel_masks.at_sentinel(term, side, sentinel) is False:
                return True
    return False


def _entry(node: ast.AST, owner: ast.AST, position: str) -> bool:
    """`owner[k]`, `owner[k].item()`, `int(owner[k])`, `int(owner[k].item())`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("int", "float") \
            and len(node.args) == 1 and not node.keywords:
        node = node.args[0]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "item" \
            and not node.args and not node.keywords:
        node = node.func.value
    return isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name) and node.slice.id == position \
        and ast.dump(node.value) == ast.dump(owner)
