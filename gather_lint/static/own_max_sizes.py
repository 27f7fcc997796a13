"""GL011: a size taken from the ids' own largest value, without the `+ 1`: `F.one_hot(y, int(y.max()))`,
`torch.zeros(n, y.max().item()).scatter_(1, y.unsqueeze(1), 1)`, `torch.zeros(k, d).index_add_(0, k_ids, ..)`
with `k = k_ids.max()`. Ids in [0, m] need m + 1 slots; the largest id is one past the last, so torch
raises whatever the values are (only an empty index gets through).

Syntax-level: the size expression (or the name it was assigned to, one step back) is `max` of the same
name the index is made from. Looked at only for one_hot calls and scatter/index writes into a buffer
made in this scope, with a literal dim.
"""
from __future__ import annotations

import ast
import re
from typing import Optional

from . import torch_aliases
from ..contract import ERROR, Site, Violation
from .last_assignment import last_assigned
from .tree_walk import own_nodes
from .text_scan import file_test

_MAX = {"max", "amax"}
_CONSTRUCTORS = {"zeros", "ones", "empty", "full", "rand", "randn"}
_WRAPPERS = {"int", "item", "long"}
_INDEX_VIEWS = {"unsqueeze", "view", "reshape", "expand", "expand_as", "long", "flatten"}


_OWN_MAX = re.compile(r"\.a?max\(\)|torch\.a?max\([\w.]+\)")  # y.max(), y.amax(), torch.max(y): the max of all ids


@file_test
def spelled_in(text: str) -> bool:
    """Blocks with a one_hot call and a whole-tensor max: the one_hot check needs no family call to be parsed."""
    return "one_hot(" in text and _OWN_MAX.search(torch_aliases.expanded(text)) is not None


def _spells_max_of(interp, base: str) -> bool:
    """The scope's text takes the max of `base` somewhere (`base.max(`, `base.amax(`, `max(base)`): the
    cheap test before any look back."""
    scope = getattr(interp, "function", None)
    holder = interp.source if scope is None else scope
    spelled = getattr(holder, "_gather_lint_max_spellings", None)
    if spelled is None:  # one scan of the scope's text, kept, where a search per site is quadratic
        text = interp.source.text if scope is None else \
            "\n".join(interp.source.lines[scope.lineno - 1:scope.end_lineno or scope.lineno])
        spelled = holder._gather_lint_max_spellings = _max_spellings(text)
    if not all(_word_char(c) for c in base):
        return False  # never a name (the spellings hold names only)
    return base in spelled


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def _max_spellings(text: str) -> frozenset:
    """Every string s for which `s.max(`, `s.amax(` or `max(s)` is in `text`, s made of name characters:
    each ending of the run of name characters before `.max(` / `.amax(`, and what `max(...)` holds."""
    found = set()
    for match in re.finditer(r"\.a?max\(", text):
        start = end = match.start()
        while start > 0 and _word_char(text[start - 1]):
            start -= 1
        found.update(text[i:end] for i in range(start, end + 1))
    for match in re.finditer(r"max\((?=([^)]*)\))", text):
        found.add(match.group(1))
    return frozenset(found)


def check_one_hot(interp, node: ast.Call, ids_node, classes_node) -> None:
    base = _base_name(ids_node)
    if base is None or classes_node is None or not _spells_max_of(interp, base):
        return
    size = _max_of(interp, classes_node, base)
    if size is not None:
        interp.flag(node, _violation(
            f"F.one_hot() is given num_classes={size[0]}, the largest value of `{base}` itself",
            "torch raises 'Class values must be smaller than num_classes.'", f"`num_classes={size[1]} + 1`"), None)


def check_site(interp, node: ast.Call, site: Site, bound: dict) -> None:
    """A scatter/index write into `torch.zeros(..)` whose size along `dim` is max of the index's ids."""
    if site.op.family not in ("scatter", "index") or site.dim is None:
        return
    receiver = bound.get("input")
    base = _base_name(bound.get(site.op.index_param))
    if base is None or not isinstance(receiver, (ast.Name, ast.Call)) or not _spells_max_of(interp, base):
        return
    made = last_assigned(interp, receiver.id, node.lineno) if isinstance(receiver, ast.Name) else receiver
    sizes = _constructor_sizes(made)
    if sizes is None or not -len(sizes) <= site.dim < len(sizes):
        return
    size = _max_of(interp, sizes[site.dim], base)
    if size is not None and not _rebound_between(interp, base, made.lineno, node.lineno):
        interp.flag(node, _violation(
            f"`{interp.source.segment(receiver)}` is made with size {size[0]} on dim {site.dim}, the largest value of "
            f"its index `{base}` itself", f"{site.op.spelled}() with that id is out of bounds and torch raises",
            f"`{size[1]} + 1` for that size"), None)


def _violation(what: str, effect: str, fix: str) -> Violation:
    return Violation(
        "GL011", ERROR,
        f"{what}: ids in [0, m] need m + 1 slots, so the largest id is one past the last and {effect} "
        f"(a device-side assert on CUDA); use {fix}",
    )


def _base_name(node) -> Optional[str]:
    """`y` of `y`, `y.unsqueeze(1)`, `y.view(-1, 1)`, `y[:, None]`, `y.long()`."""
    while True:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _INDEX_VIEWS:
            node = node.func.value
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            node = node.value
        else:
            return None


def _max_of(interp, node, base: str, follow: bool = True) -> Optional[tuple]:
    """(how messages show it, its source text) when `node` is (or names) the max of `base`: `base.max()`, `int(base.max())`,
    `base.max().item()`, `torch.max(base)`, `base.amax()`."""
    if isinstance(node, ast.Name) and follow:
        made = last_assigned(interp, node.id, node.lineno)
        found = _max_of(interp, made, base, False) if made is not None else None
        if found is None or _rebound_between(interp, base, made.lineno, node.lineno):
            return None  # `labels = labels - 1` after the max: the size may be right for the new ids
        return f"`{node.id}` (= {found[0]})", node.id
    inner = node
    while isinstance(inner, ast.Call) and (
            (isinstance(inner.func, ast.Name) and inner.func.id == "int" and len(inner.args) == 1)
            or (isinstance(inner.func, ast.Attribute) and inner.func.attr in _WRAPPERS and not inner.args)):
        inner = inner.args[0] if isinstance(inner.func, ast.Name) else inner.func.value
    if not isinstance(inner, ast.Call) or not isinstance(inner.func, ast.Attribute) or inner.func.attr not in _MAX:
        return None
    if inner.args or inner.keywords:  # y.max(dim) is per row; torch.max(y) takes y as its argument
        owner = inner.func.value
        if not (isinstance(owner, ast.Name) and owner.id == "torch" and len(inner.args) == 1 and not inner.keywords):
            return None
        target = inner.args[0]
    else:
        target = inner.func.value
    text = interp.source.segment(node)
    return (f"`{text}`", text) if isinstance(target, ast.Name) and target.id == base else None


def _constructor_sizes(node) -> Optional[list]:
    """The size arguments of `torch.zeros(a, b)` / `torch.zeros((a, b))` (no other positional args)."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) or node.func.attr not in _CONSTRUCTORS \
            or not (isinstance(node.func.value, ast.Name) and node.func.value.id == "torch"):
        return None
    args = node.args[:-1] if node.func.attr == "full" else node.args
    if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
        args = args[0].elts
    if not args or any(isinstance(a, ast.Starred) for a in args):
        return None
    return list(args)


def _rebound_between(interp, name: str, first: int, last: int) -> bool:
    """`name` assigned (plainly, augmented, or as a loop target) on a line in [first, last)."""
    scope = getattr(interp, "function", None) or getattr(getattr(interp, "module", None), "tree", None)
    if scope is None:
        return True
    for stmt in own_nodes(scope):
        if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For)) and first <= stmt.lineno < last:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if any(isinstance(n, ast.Name) and n.id == name for t in targets for n in ast.walk(t)):
                return True
    return False
