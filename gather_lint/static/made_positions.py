"""Names every binding of which, in one function, makes positions that do not repeat.

`part_ids = torch.arange(V)` before a loop and `part_ids = scores.topk(k)[1]` inside it: the analysis
forgets a name a loop rebinds (and joins two branches' values into less), and a name that sounds like
ids (`..._ids`, `labels`) would then supply "these values can repeat" (names.category_domain). Where the
code itself made the values on every path, with arange, randperm, topk, sort or argsort, the values are
positions, which the analysis never takes for repeating when it still holds them: the name does not
speak for them either.
"""
from __future__ import annotations

import ast
from typing import Dict

from . import tree_walk

_MAKERS = frozenset({"arange", "randperm", "argsort"})  # calls whose result is the positions
_PAIRS = frozenset({"topk", "sort"})  # calls whose [1] / .indices are the positions


def only_positions(function, name: str) -> bool:
    """Whether `name` is assigned in `function`, and every assignment makes positions."""
    if function is None:
        return False
    found: Dict[str, bool] = function.__dict__.setdefault("_gather_lint_made_positions", {})
    if name not in found:
        values = [node.value for node in tree_walk.all_nodes(function) if isinstance(node, ast.Assign)
                  for target in node.targets if isinstance(target, ast.Name) and target.id == name]
        found[name] = bool(values) and all(_makes_positions(v) for v in values)
    return found[name]


def _makes_positions(node) -> bool:
    if isinstance(node, ast.Call):
        return _called(node) in _MAKERS
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == 1:
        return isinstance(node.value, ast.Call) and _called(node.value) in _PAIRS  # torch.topk(s, k)[1]
    if isinstance(node, ast.Attribute) and node.attr == "indices":
        return isinstance(node.value, ast.Call) and _called(node.value) in _PAIRS  # s.topk(k).indices
    return False


def _called(call: ast.Call):
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
