"""GL024: two sequences each read at the larger of their two positions (`torch.maximum(end_a, end_b)`).

A pairwise loss (chosen vs rejected answer, two views of a sequence) often reads one value per row of
each sequence at its last token. Computing each sequence's position the same way (`c = first_pad(chosen)`,
`r = first_pad(rejected)`), then reading *both* at `torch.maximum(c, r) - 1`, reads the shorter sequence of
each pair past its own position: a padding position, silently. Found by syntax, one function at a time:
the two positions come from one expression applied to two different sequences (the same call, or the same
expression with the sequence's name changed), their elementwise max (`torch.maximum`, `torch.max(a, b)`,
`max(a, b)`, `a.maximum(b)`) is in the index of a gather or a row-wise pick (`x[torch.arange(B), idx]`),
and the tensor read is made from one of the two sequences.
"""
from __future__ import annotations

import ast
import re
from typing import Dict, Iterator, List, Optional, Set, Tuple

from ..rules import gl024_last_position_of_padded_batch as rule
from .row_picks import picked
from .text_scan import literal_lines, match_lines
from .tree_walk import called_name, own_nodes, scopes
from .text_scan import file_test

# starts with a literal: the regex engine finds candidates by a fast scan, not a try at every character
_MAX_OF_TWO = re.compile(r"max(?:imum\(\s*\w+\s*(?:,\s*\w+\s*)?\)|\(\s*\w+\s*,\s*\w+\s*\))")
_READ_TEXT = ("gather(", "take_along_dim(", "range(")  # the reads row_picks.picked knows, by their text


@file_test
def spelled_in(text: str) -> bool:
    return ("gather" in text or "arange(" in text or "take_along_dim" in text) and "max" in text \
        and _MAX_OF_TWO.search(text) is not None


def check_module(tree: ast.Module, text: str) -> Iterator[Tuple[ast.AST, object]]:
    lines = match_lines(text, _MAX_OF_TWO)
    reads = literal_lines(text, _READ_TEXT)
    for scope in scopes(tree):
        first = getattr(scope, "lineno", 1)
        last = getattr(scope, "end_lineno", None) or first
        if scope is tree or any(first <= line <= last for line in lines) and any(first <= line <= last for line in reads):
            yield from _check_scope(scope)


def _check_scope(scope) -> Iterator[Tuple[ast.AST, object]]:
    nodes = own_nodes(scope)
    values: Dict[str, ast.expr] = {}
    for node in nodes:
        for name, value in _assigned(node):
            values[name] = value
    shared = {}  # name of the max -> (sequence a, sequence b, its text)
    for name, value in values.items():
        for part in ast.walk(value):  # `last = torch.maximum(a, b) - 1` too
            pair = _max_of(part)
            seqs = _same_making(values.get(pair[0]), values.get(pair[1])) if pair is not None else None
            if seqs is not None:
                shared[name] = (*seqs, ast.unparse(value))
                break
    if not shared:
        return
    for node in nodes:
        read = picked(node, values)
        if read is None:
            continue
        source, index = read
        used = {n.id for n in ast.walk(index) if isinstance(n, ast.Name)} & set(shared)
        for name in used:
            a, b, text = shared[name]
            made_from = _made_from(source, values, {a, b})
            if made_from is not None:
                yield node, rule.shared_end(ast.unparse(source), made_from, name, text, b if made_from == a else a)
                break


def _assigned(node) -> List[Tuple[str, ast.expr]]:
    if not isinstance(node, ast.Assign) or len(node.targets) != 1:
        return []
    target, value = node.targets[0], node.value
    if isinstance(target, ast.Name):
        return [(target.id, value)]
    if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(value.elts) == len(target.elts):
        return [(t.id, v) for t, v in zip(target.elts, value.elts) if isinstance(t, ast.Name)]
    return []


def _max_of(value) -> Optional[Tuple[str, str]]:
    """(a, b) of `torch.maximum(a, b)`, `torch.max(a, b)`, `max(a, b)`, `a.maximum(b)`: names only."""
    name = called_name(value)
    if name in ("maximum", "max") and len(value.args) == 2 and not value.keywords \
            and all(isinstance(a, ast.Name) for a in value.args):
        return value.args[0].id, value.args[1].id
    if name == "maximum" and len(value.args) == 1 and isinstance(value.func, ast.Attribute) \
            and isinstance(value.func.value, ast.Name) and isinstance(value.args[0], ast.Name):
        return value.func.value.id, value.args[0].id
    return None


def _same_making(a, b) -> Optional[Tuple[str, str]]:
    """(sequence of a, sequence of b) when b is a's expression with one name changed (`f(chosen, pad)` and
    `f(rejected, pad)`, `(x != pad).sum(1)` and `(y != pad).sum(1)`)."""
    if a is None or b is None or not isinstance(a, (ast.Call, ast.BinOp)):
        return None
    names_a = [n.id for n in ast.walk(a) if isinstance(n, ast.Name)]
    names_b = [n.id for n in ast.walk(b) if isinstance(n, ast.Name)]
    if len(names_a) != len(names_b):
        return None
    changed = {(x, y) for x, y in zip(names_a, names_b) if x != y}
    if len(changed) != 1:
        return None
    (x, y), = changed
    return (x, y) if ast.dump(_renamed(a, x, y)) == ast.dump(b) else None


def _renamed(tree, old: str, new: str):
    class Rename(ast.NodeTransformer):
        def visit_Name(self, node):
            return ast.copy_location(ast.Name(id=new, ctx=node.ctx), node) if node.id == old else node
    return Rename().visit(_copy(tree))


def _copy(tree):
    return ast.parse(ast.unparse(tree), mode="eval").body


def _made_from(source, values: Dict[str, ast.expr], seqs: Set[str]) -> Optional[str]:
    """The one sequence of `seqs` the tensor read is made from, following names back a few steps."""
    found: Set[str] = set()
    todo, seen = [source], set()
    for _ in range(6):
        if not todo:
            break
        node = todo.pop()
        for name in (n.id for n in ast.walk(node) if isinstance(n, ast.Name)):
            if name in seqs:
                found.add(name)
            elif name not in seen and name in values:
                seen.add(name)
                todo.append(values[name])
    return found.pop() if len(found) == 1 else None
