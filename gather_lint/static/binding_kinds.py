"""Names whose bindings in a function show they hold no repeating ids, whatever their name says.

A name that sounds like ids (`part_ids`, `sequence_ids`, `labels`) gives a value the analysis does not
hold the word "these values can repeat" (names.category_domain). The code can say otherwise:

- every assignment makes positions, with arange, randperm, topk, sort or argsort (`part_ids =
  torch.arange(V)` before a loop, `part_ids = scores.topk(k)[1]` inside it): the analysis forgets a name a
  loop rebinds, but positions are what it never takes for repeating while it holds them;
- it is a key of a dict the function iterates (`for sequence_ids, bias in table.items()`): dict keys are
  hashable Python values (tuples of token ids, ints, strings), not index tensors, and `sequence_ids[-1]`
  is one int.
"""
from __future__ import annotations

import ast
from typing import Dict

from . import tree_walk

_MAKERS = frozenset({"arange", "randperm", "argsort"})  # calls whose result is the positions
_PAIRS = frozenset({"topk", "sort"})  # calls whose [1] / .indices are the positions
# a function spelling none of these binds no name either way (argsort: "sort")
_WORDS = ("arange", "randperm", "sort", "topk", ".items()", ".keys()")


def not_repeating_ids(function, name: str, lines) -> bool:
    """Whether `function` (whose source `lines` are the file's) binds `name` only to positions, or as a key
    of `.items()` / `.keys()`."""
    if function is None:
        return False
    found = getattr(function, "_gather_lint_binding_kinds", None)
    if found is None:  # one walk per function, and only of one that spells a maker or a dict loop
        text = "\n".join(lines[function.lineno - 1:function.end_lineno or function.lineno])
        found = function._gather_lint_binding_kinds = _kinds(tree_walk.all_nodes(function)) \
            if any(word in text for word in _WORDS) else frozenset()
    return name in found


def _kinds(nodes) -> frozenset:
    positions: Dict[str, bool] = {}  # name -> whether every assignment to it so far makes positions
    keys = set()
    for node in nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    positions[target.id] = positions.get(target.id, True) and _makes_positions(node.value)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            keys.update(_key_names(node))
    return frozenset(keys | {name for name, made in positions.items() if made})


def _makes_positions(node) -> bool:
    if isinstance(node, ast.Call):
        return _called(node) in _MAKERS
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == 1:
        return isinstance(node.value, ast.Call) and _called(node.value) in _PAIRS  # torch.topk(s, k)[1]
    if isinstance(node, ast.Attribute) and node.attr == "indices":
        return isinstance(node.value, ast.Call) and _called(node.value) in _PAIRS  # s.topk(k).indices
    return False


def _key_names(loop):
    """The key names of `for k, v in d.items()` / `for k in d.keys()`."""
    it, target = loop.iter, loop.target
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and not it.args):
        return ()
    if it.func.attr == "items" and isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name):
        return (target.elts[0].id,)
    if it.func.attr == "keys" and isinstance(target, ast.Name):
        return (target.id,)
    return ()


def _called(call: ast.Call):
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
