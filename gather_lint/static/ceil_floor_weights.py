"""GL026: linear-interpolation weights `(ceil(b) - b)` and `(b - floor(b))` that are both 0 on whole numbers.

Spreading a value between the two neighbours of a fractional position `b` (the categorical-DQN projection,
histogram binning, a linear splat) takes `l = b.floor()`, `u = b.ceil()` and writes `w * (u - b)` at `l` and
`w * (b - l)` at `u`. When `b` is a whole number, `l == u` and both weights are 0: the value is never added,
silently. Found by syntax, one function at a time: both neighbours rounded from the same expression (also
`torch.floor(b)`, cast with `.long()` / `.to(torch.int64)`, assigned as a pair), both weights spelled, and one
of them written by an accumulating call (`index_add_`, `scatter_add_`, `index_put_(..., accumulate=True)`,
`x[l] += ...`). Silent when the scope handles the coincidence: it compares the two neighbours (`l == u`) or
changes one after rounding (`l[(u > 0) & (l == u)] -= 1`).
"""
from __future__ import annotations

import ast
import re
from typing import Dict, Iterator, List, Optional, Set, Tuple

from ..rules import gl026_interpolation_weights_vanish as rule
from .text_scan import match_lines
from .tree_walk import called_name, own_nodes, scopes
from .text_scan import file_test

_CASTS = {"long", "int", "float", "double", "to", "type", "type_as", "short", "half", "astype"}
_CEIL = re.compile(r"ceil\(")
_ACCUMULATE = {"index_add_", "index_add", "scatter_add_", "scatter_add", "index_put_", "index_put", "put_",
               "scatter_reduce_", "scatter_reduce", "add_at"}


@file_test
def spelled_in(text: str) -> bool:
    return "ceil" in text and "floor" in text and ("_add" in text or "+=" in text or "put" in text)


def check_module(tree: ast.Module, text: str) -> Iterator[Tuple[ast.AST, object]]:
    lines = match_lines(text, _CEIL)
    for scope in scopes(tree):
        first, last = getattr(scope, "lineno", 1), getattr(scope, "end_lineno", None) or 1
        if scope is tree or any(first <= line <= last for line in lines):  # only the scopes that round up
            yield from _check_scope(scope)


def _check_scope(scope) -> Iterator[Tuple[ast.AST, object]]:
    nodes = own_nodes(scope)
    rounded: Dict[str, Tuple[str, str]] = {}  # name -> ("floor" | "ceil", text of what was rounded)
    stores: Dict[str, int] = {}
    for node in nodes:
        for target, value in _assigned(node):
            stores[target] = stores.get(target, 0) + 1
            kind = _rounding(value)
            if kind is not None:
                rounded[target] = kind
        if isinstance(node, ast.AugAssign):  # `u += 1`, `l[mask] -= 1`: the neighbour was moved
            base = _base_name(node.target)
            if base is not None:
                stores[base] = stores.get(base, 0) + 2
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                if isinstance(target, ast.Subscript) and _base_name(target) is not None:
                    stores[_base_name(target)] = stores.get(_base_name(target), 0) + 2
    pairs = [(low, up, of) for low, (kind, of) in rounded.items() if kind == "floor"
             for up, (other, of2) in rounded.items() if other == "ceil" and of2 == of
             and stores.get(low) == 1 and stores.get(up) == 1]
    if not pairs:
        return
    compared = _compared_pairs(nodes)
    for low, up, of in pairs:
        if frozenset((low, up)) in compared:
            continue
        upper_weight = _weights(nodes, up, of, upper=True)
        lower_weight = _weights(nodes, low, of, upper=False)
        if not upper_weight or not lower_weight:
            continue
        weighted = _names_holding(nodes, upper_weight + lower_weight)
        for write in _accumulating_writes(nodes, (low, up), upper_weight + lower_weight, weighted):
            yield write, rule.vanishing_weights(low, up, of, ast.unparse(upper_weight[0]), ast.unparse(lower_weight[0]))


def _assigned(node) -> List[Tuple[str, ast.expr]]:
    """(name, value) of `x = v` and of the pairs of `a, b = v, w`."""
    if not isinstance(node, ast.Assign) or len(node.targets) != 1:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            return [(node.target.id, node.value)]
        return []
    target, value = node.targets[0], node.value
    if isinstance(target, ast.Name):
        return [(target.id, value)]
    if isinstance(target, ast.Tuple):
        if isinstance(value, ast.Tuple) and len(value.elts) == len(target.elts):
            return [(t.id, v) for t, v in zip(target.elts, value.elts) if isinstance(t, ast.Name)]
        return [(t.id, t) for t in target.elts if isinstance(t, ast.Name)]  # unknown values, counted as stores
    return []


def _uncast(node: ast.expr) -> ast.expr:
    """`x.long()`, `x.to(torch.int64)`, `x.float()`: x."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _CASTS:
        node = node.func.value
    return node


def _rounding(value: ast.expr) -> Optional[Tuple[str, str]]:
    """("floor" | "ceil", text of b) for `b.floor()`, `torch.ceil(b)`, `np.floor(b)`, each maybe cast."""
    value = _uncast(value)
    kind = called_name(value)
    if kind not in ("floor", "ceil"):
        return None
    func = value.func
    if isinstance(func, ast.Attribute) and not value.args and not value.keywords:
        return kind, ast.unparse(func.value)
    if len(value.args) == 1 and not value.keywords:
        return kind, ast.unparse(value.args[0])
    return None


def _base_name(node) -> Optional[str]:
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _compared_pairs(nodes) -> Set[frozenset]:
    """Pairs of names compared in the scope: `l == u`, `u > l`, `torch.eq(l, u)`, `l.eq(u)`."""
    found = set()
    for node in nodes:
        operands = None
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
        elif called_name(node) in ("eq", "ne", "equal", "gt", "lt", "ge", "le", "isclose"):
            operands = list(node.args) + ([node.func.value] if isinstance(node.func, ast.Attribute) else [])
        if operands:
            names = {n for n in (_base_name(_uncast(o)) for o in operands) if n is not None}
            found.update(frozenset((a, b)) for a in names for b in names if a != b)
    return found


def _weights(nodes, name: str, of: str, upper: bool) -> List[ast.BinOp]:
    """`u - b` (upper) / `b - l` (lower), the neighbour maybe cast (`u.float() - b`), or one element of each
    read at the same key in a loop (`u[j] - b[j]`)."""
    found = []
    for node in nodes:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
            neighbour, position = (node.left, node.right) if upper else (node.right, node.left)
            neighbour, position = _uncast(neighbour), _uncast(position)
            if isinstance(neighbour, ast.Subscript) and isinstance(position, ast.Subscript) \
                    and ast.unparse(neighbour.slice) == ast.unparse(position.slice):
                neighbour, position = neighbour.value, position.value
            if isinstance(neighbour, ast.Name) and neighbour.id == name and ast.unparse(position) == of:
                found.append(node)
    return found


def _names_holding(nodes, weights: List[ast.BinOp]) -> Set[str]:
    """Names assigned an expression holding one of the weights (one step: `w_l = p * (u - b)`)."""
    inside = {id(w) for w in weights}
    return {target for node in nodes for target, value in _assigned(node)
            if any(id(n) in inside for n in ast.walk(value))}


def _accumulating_writes(nodes, neighbours, weights, weighted: Set[str]) -> Iterator[ast.AST]:
    inside = {id(w) for w in weights}

    def holds_weight(expr) -> bool:
        return any(id(n) in inside or isinstance(n, ast.Name) and n.id in weighted for n in ast.walk(expr))

    def names_neighbour(expr) -> bool:
        return any(isinstance(n, ast.Name) and n.id in neighbours for n in ast.walk(expr))

    for node in nodes:
        if isinstance(node, ast.Call) and called_name(node) in _ACCUMULATE:
            args = list(node.args) + [k.value for k in node.keywords]
            if any(holds_weight(a) for a in args) and any(names_neighbour(a) for a in args):
                yield node
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and isinstance(node.target, ast.Subscript) \
                and names_neighbour(node.target.slice) and holds_weight(node.value):
            yield node
