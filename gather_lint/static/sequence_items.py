"""Lists of the items of one sequence, and the tensors made of them.

`centers.append(doc_ids[i])` / `contexts.append(doc_ids[j])` in a window loop, or `src.append(a)` with `a`
bound by `for a in token_ids` (also `enumerate(token_ids)` and a slice of it): each list holds items of
`doc_ids`. A tensor made of such a list (`torch.tensor(centers)`) keeps that provenance (Domain.items_of), and
where the sequence's name says it holds ids (names.category_domain) its values are those ids. Two index
tensors of items of one sequence then pair its ids, as `counts[tokens[:-1], tokens[1:]]` does: a pair recurs
wherever the ids do, and a write that keeps one value per position loses the repeats.
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Dict, Optional

from . import tree_walk
from .names import category_domain
from .values import TensorVal


def tensor_of(interp, list_node, made):
    """`torch.tensor(L)`: `made` with the ids' facts of the sequence L's items come from, when known."""
    function = interp.function
    if not isinstance(made, TensorVal) or made.domain is not None or made.dtype not in (None, "int64") \
            or not isinstance(list_node, ast.Name) or function is None \
            or f"{list_node.id}.append(" not in interp.source.text:  # most lists: no walk of the function
        return made
    source = _sources(function).get(list_node.id)
    domain = category_domain(source) if source is not None else None
    if domain is None or not domain.repeats:
        return made
    return made.with_(dtype="int64", domain=replace(domain, items_of=source))


def _sources(function) -> Dict[str, str]:
    """{list name: sequence name} for the lists every append of which (in `function`) adds an item of one
    sequence, and that the function changes no other way; kept on the function's node. One walk: the loops
    that bind names to a sequence's items (`for a in seq`, `for a in seq[i:j]`, `for i, a in enumerate(seq)`),
    the appends, and every other binding or change of a name."""
    found = getattr(function, "_gather_lint_item_lists", None)
    if found is not None:
        return found
    loops: Dict[str, Optional[str]] = {}
    appends = []
    rebound = set()
    for node in tree_walk.all_nodes(function):
        if isinstance(node, (ast.For, ast.comprehension)):
            target, source = _loop_item(node)
            if target is not None:
                loops[target] = source if loops.get(target, source) == source else None
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.attr in _CHANGES:
            appends.append(node)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            rebound.update(_rebound(node))
    items = {k: v for k, v in loops.items() if v is not None and k not in rebound}
    sources: Dict[str, Optional[str]] = {}
    for call in appends:
        name = call.func.value.id
        source = _item_source(call.args[0], items) if call.func.attr == "append" and len(call.args) == 1 else None
        sources[name] = source if sources.get(name, source) == source else None
    found = function._gather_lint_item_lists = {k: v for k, v in sources.items() if v is not None and k not in rebound}
    return found


def _loop_item(node):
    """(target, sequence) when a loop binds its target name to the items of a named sequence; else (None, None)."""
    source, target = node.iter, node.target
    if isinstance(source, ast.Call) and isinstance(source.func, ast.Name) and source.func.id == "enumerate" \
            and source.args and isinstance(target, ast.Tuple) and len(target.elts) == 2:
        source, target = source.args[0], target.elts[1]
    if isinstance(source, ast.Subscript) and isinstance(source.slice, ast.Slice):
        source = source.value
    if isinstance(source, ast.Name) and isinstance(target, ast.Name):
        return target.id, source.id
    return None, None


def _empty_list(node) -> bool:
    return isinstance(node, ast.List) and not node.elts


_CHANGES = ("append", "extend", "insert", "__setitem__", "pop", "remove")


def _rebound(node):
    """Names a statement binds or changes other than by `name = []`."""
    if isinstance(node, ast.Assign):
        pairs = [(t, node.value) for t in node.targets]
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) and isinstance(node.value, ast.Tuple) \
                and len(node.targets[0].elts) == len(node.value.elts):
            pairs = list(zip(node.targets[0].elts, node.value.elts))  # `src, dst = [], []`
        return [n.id for target, value in pairs if not (_empty_list(value) and isinstance(target, ast.Name))
                for n in ast.walk(target) if isinstance(n, ast.Name)]  # `L[k] = v` and `a, b = f()` too
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        target = node.target.value if isinstance(node.target, ast.Subscript) else node.target
        return [target.id] if isinstance(target, ast.Name) else []
    return []


def _item_source(value, loop_items: Dict[str, str]) -> Optional[str]:
    """The sequence an appended value is an item of: `seq[i]` (not a slice), or a name a loop over it bound."""
    if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and not isinstance(value.slice, ast.Slice):
        return value.value.id
    if isinstance(value, ast.Name):
        return loop_items.get(value.id)
    return None
