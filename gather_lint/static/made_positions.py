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
from . import tree_walk

_MAKERS = frozenset({"arange", "randperm", "argsort"})  # calls whose result is the positions
_PAIRS = frozenset({"topk", "sort"})  # calls whose [1] / .indices are the positions
_WORDS = ("arange", "randperm", "sort", "topk")  # a function spelling none makes no positions (argsort: "sort")


def only_positions(function, name: str, lines) -> bool:
    """Whether `name` is assigned in `function` (whose source `lines` are those of the file), and every
    assignment makes positions."""
    if function is None:
        return False
    made = getattr(function, "_gather_lint_made_positions", None)
    if made is None:  # one walk per function: {name: whether every assignment to it makes positions}
        made = {}
        text = "\n".join(lines[function.lineno - 1:function.end_lineno or function.lineno])
        for node in tree_walk.all_nodes(function) if any(word in text for word in _WORDS) else ():
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        made[target.id] = made.get(target.id, True) and _makes_positions(node.value)
        function._gather_lint_made_positions = made
    return made.get(name, False)


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
