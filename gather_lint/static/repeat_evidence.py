"""Whether an index handed to a custom autograd Function can repeat, on evidence the module shows.

A forward parameter named as ids (`token_ids`, `labels`, `edge_index`: the names' convention in
:mod:`names`), or an argument at one of the Function's `apply` calls that is such a name, a random draw
(`randint`, `multinomial`) or a literal with a repeated value. Positions an unpadding step made
(`indices` from `nonzero`) show none of these, and stay silent.
"""
from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Optional

from . import tree_walk
from .names import category_domain

_DRAWS = ("randint", "multinomial", "randint_like")


class ModuleNodes:
    """A module's assignments and calls, from one walk on the first question (a file with a custom
    Function asks once per index its backward reads)."""

    def __init__(self, tree: ast.Module):
        self.tree, self._read = tree, False
        self.assigns: List[ast.Assign] = []
        self.calls: List[ast.Call] = []

    def read(self) -> "ModuleNodes":
        if not self._read:
            self._read = True
            for node in tree_walk.all_nodes(self.tree):
                if isinstance(node, ast.Assign):
                    self.assigns.append(node)
                elif isinstance(node, ast.Call):
                    self.calls.append(node)
        return self


def argument_repeats(nodes: ModuleNodes, function_class: str, forward, name: str) -> bool:
    if _named_repeating(name):
        return True
    params = [a.arg for a in forward.args.args]
    if name not in params:
        return False
    position = params.index(name) - 1  # apply(...) takes every forward argument but ctx
    assigned = _assignments(nodes.read().assigns)
    return any(_can_repeat(arg, assigned) for arg in _apply_arguments(nodes, function_class, position))


def _apply_arguments(nodes: ModuleNodes, function_class: str, position: int) -> Iterator[ast.AST]:
    """The argument at `position` of every `Cls.apply(...)` call, also through `fn = Cls.apply`."""
    aliases = {target.id for node in nodes.assigns if _is_apply(node.value, function_class)
               for target in node.targets if isinstance(target, ast.Name)}
    for node in nodes.calls:
        if position >= 0 and len(node.args) > position and (
                _is_apply(node.func, function_class) or (isinstance(node.func, ast.Name) and node.func.id in aliases)):
            yield node.args[position]


def _is_apply(node, function_class: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "apply" and isinstance(node.value, ast.Name) \
        and node.value.id == function_class


def _assignments(assigns: List[ast.Assign]) -> Dict[str, List[ast.AST]]:
    found: Dict[str, List[ast.AST]] = {}
    for node in assigns:
        for target in node.targets:
            if isinstance(target, ast.Name):
                found.setdefault(target.id, []).append(node.value)
    return found


def _can_repeat(arg, assigned: Dict[str, List[ast.AST]], row: Optional[int] = None) -> bool:
    if isinstance(arg, ast.Name):
        return _named_repeating(arg.id) or any(_can_repeat(v, {}, row) for v in assigned.get(arg.id, ()))
    if isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Constant) and isinstance(arg.slice.value, int):
        return _can_repeat(arg.value, assigned, arg.slice.value)  # edges[1]: one row of an edge list
    if isinstance(arg, ast.Call):
        name = arg.func.attr if isinstance(arg.func, ast.Attribute) else getattr(arg.func, "id", None)
        if name in _DRAWS:
            return True
        if name in ("tensor", "as_tensor", "LongTensor") and arg.args:
            return _literal_repeats(arg.args[0], row)
    return False


def _literal_repeats(node, row: Optional[int]) -> bool:
    """A list literal with a repeated int: in the given row of a nested list, else in any innermost list."""
    if not isinstance(node, (ast.List, ast.Tuple)):
        return False
    if node.elts and all(isinstance(e, (ast.List, ast.Tuple)) for e in node.elts):
        rows = [node.elts[row]] if row is not None and -len(node.elts) <= row < len(node.elts) else node.elts
        return any(_literal_repeats(r, None) for r in rows)
    values = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, int)]
    return len(values) != len(set(values))


def _named_repeating(name: str) -> bool:
    domain = category_domain(name)
    return domain is not None and domain.repeats
