"""The functions of a file that run an analysis of their own (analyzer.lint_source).

A function's own analysis costs a run of every statement in it, and a class block kept for one method
holds dozens of methods that can find nothing. A function runs its own analysis when its own lines hold a
site (the test that keeps a block, read on the function alone), or when it calls such a function: its
facts may make the callee's finding. A call reaches a function by its name, by a method name, by its
class (a constructor, or an instance called as `self.head(x)` after `self.head = Head(...)`), or through a
name a function is stored under (`self.loss = token_loss`). Every other function still serves its
callers: a call that reaches it analyses it then.
"""
from __future__ import annotations

import ast
import re
from typing import Callable, Dict, List, Set

from .tree_walk import function_defs

# `head = Head(`, `self.head = layers.Head(`, `self.loss = token_loss`: a name bound to a class's instance
# or to a function, which calls through the name reach
_BOUND = re.compile(r"(\w+)[ \t]*=[ \t]*(?:\w+\.)*(\w+)(?:\(|[ \t]*$)", re.MULTILINE)


class _Function:
    __slots__ = ("node", "class_name", "called", "holds_site")

    def __init__(self, node, class_name, called, holds_site):
        self.node, self.class_name, self.called, self.holds_site = node, class_name, called, holds_site


def chosen(tops: List[ast.AST], text: str, holds_site: Callable[[str, str], bool],
           called_names: Callable[[str], Set[str]]) -> Set[int]:
    """ids of the function nodes under `tops` (of the file `text`) that run their own analysis.
    `holds_site(function text, its top-level block's text)`; `called_names(text)`: the names it calls."""
    lines = text.splitlines(keepends=True)
    functions: List[_Function] = []
    bases: Dict[str, Set[str]] = {}
    for top in tops:
        block = _text(top, lines)
        class_name = top.name if isinstance(top, ast.ClassDef) else None
        if class_name is not None:
            bases[class_name] = {_last_name(base) for base in top.bases}
        for node in function_defs(top):
            own = _text(node, lines)
            functions.append(_Function(node, class_name, called_names(own), holds_site(own, block)))
    needed = [f for f in functions if f.holds_site]
    if not needed or len(needed) == len(functions):
        return {id(f.node) for f in needed}
    aliases = _aliases(text)
    waiting = [f for f in functions if not f.holds_site]
    while waiting:
        names = _reached_names(needed, bases, aliases)
        reached = [f for f in waiting if not f.called.isdisjoint(names)]
        if not reached:
            break
        needed.extend(reached)
        waiting = [f for f in waiting if f.called.isdisjoint(names)]
    return {id(f.node) for f in needed}


def _reached_names(needed: List[_Function], bases: Dict[str, Set[str]], aliases: Dict[str, Set[str]]) -> Set[str]:
    """The names whose call can reach a needed function: its own, its class's and its subclasses' (they
    inherit it), and the names bound to any of them."""
    names = {f.node.name for f in needed}
    classes = {f.class_name for f in needed if f.class_name is not None}
    grown = True
    while grown:  # subclasses, at any depth
        more = {name for name, parents in bases.items() if name not in classes and not parents.isdisjoint(classes)}
        classes |= more
        grown = bool(more)
    names |= classes
    names |= {alias for alias, targets in aliases.items() if not targets.isdisjoint(names)}
    return names


def _aliases(text: str) -> Dict[str, Set[str]]:
    found: Dict[str, Set[str]] = {}
    for alias, target in _BOUND.findall(text):
        found.setdefault(alias, set()).add(target)
    return found


def _text(node, lines: List[str]) -> str:
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", ())])
    return "".join(lines[first - 1:node.end_lineno])


def _last_name(node) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""
