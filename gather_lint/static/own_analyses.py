"""The functions of a file that run an analysis of their own (analyzer.lint_source).

A function's own analysis costs a run of every statement in it, and a class block kept for one method
holds dozens of methods that can find nothing. A function runs its own analysis when its own lines hold a
site (the test that keeps a block, read on the function alone), or when it calls such a function: its
facts may make the callee's finding. A call reaches a module function by its name or a name it is stored
under (`self.loss = token_loss`), a method through `self`/`cls`/`super()` from a class related to its own,
a class through its constructor or a method through the class's name (`Ops.pick(x)`), and in a script (which builds its models from known sizes) an instance
through the name it is bound to (`self.head = Head(16)`, then `self.head(x)`). Every other function still
serves its callers: a call that reaches it analyses it then.
"""
from __future__ import annotations

import ast
import re
from typing import Callable, Dict, List, Optional, Set

from . import script_drivers
from .text_scan import word_positions
from .tree_walk import function_defs

# `head = Head(`, `self.head = layers.Head(`, `self.loss = token_loss`: a name bound to a class's instance
# or to a function, which calls through the name reach; read on the text before the class or function name
_BOUND_TO = re.compile(r"(\w+)[ \t]*=[ \t]*(?:\w+\.)*$")


_LITERAL_ARGUMENTS = re.compile(r"\([\d\s,.+\-]*\)")  # `()`, `(16, 4)`, `(0.1)`
_ATTRIBUTE_CALL = re.compile(r"\.[ \t]*(\w++)[ \t]*\(")  # starts with a literal: the engine skips to each `.`
_RECEIVERS = ("self", "cls", "super()")
# `Ops.pick(` read in the reversed text (one scan from each `(`, where a search back from each `.` for the
# name before it tried every position of 64 characters): (method reversed, what stands between the name and
# the `.` (spaces, and a line's end right before the `.`), name reversed, the character before the name)
_THROUGH_REVERSED = re.compile(r"\([ \t]*(\w++)[ \t]*\.(\n?[ \t]*)(\w+)(?=(.?))", re.DOTALL)
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")  # `Ops`, not `3` nor `é`


class _Function:
    """One function of the file: what it calls is read only if the choice needs it (not for those holding a site)."""

    __slots__ = ("node", "class_name", "text", "holds_site", "_read_calls", "_plain", "_on_self", "_through")

    def __init__(self, node, class_name, text, holds_site, read_calls):
        self.node, self.class_name, self.text, self.holds_site = node, class_name, text, holds_site
        self._read_calls, self._plain, self._on_self, self._through = read_calls, None, None, None

    @property
    def plain(self) -> Set[str]:
        if self._plain is None:
            self._plain = self._read_calls(self.text)
        return self._plain

    @property
    def on_self(self) -> Set[str]:
        """Methods it calls on its own instance or class: of its own class, a parent's or a child's."""
        if self._on_self is None:
            text = self.text
            self._on_self = {m.group(1) for m in _ATTRIBUTE_CALL.finditer(text)
                             if text[max(0, m.start() - 7):m.start()].rstrip().endswith(_RECEIVERS)}
        return self._on_self

    @property
    def through_names(self) -> Set[tuple]:
        """(name, method) of the calls it makes through a bare name (`Ops.pick(`): a class's static or
        class method when the name is a class of the file."""
        if self._through is None:
            found = set()
            for method, spaces, name, before in _THROUGH_REVERSED.findall(self.text[::-1]):
                # a name of at most 64 characters with its spaces, starting with a letter, not an attribute
                if name[-1] in _NAME_START and len(name) + len(spaces) <= 64 and before != ".":
                    found.add((name[::-1], method[::-1]))
            self._through = found
        return self._through


def chosen(tops: List[ast.AST], text: str, holds_site: Callable[[str, str], bool],
           plain_calls: Callable[[str], Set[str]], lines: Optional[List[str]] = None) -> List[ast.AST]:
    """The function nodes under `tops` (of the file `text`) that run their own analysis, in the order of
    tree_walk.function_defs. `holds_site(function text, its top-level block's text)`; `plain_calls(text)`:
    the names it calls as `f(...)`; `lines`: the text's lines with their ends, when already split."""
    lines = text.splitlines(keepends=True) if lines is None else lines
    functions: List[_Function] = []
    bases: Dict[str, Set[str]] = {}
    for top in tops:
        block = _text(top, lines)
        methods = set()
        if isinstance(top, ast.ClassDef):
            bases[top.name] = {_last_name(base) for base in top.bases}
            methods = {id(node) for node in top.body}
        # the tests are text searches: a block that holds no site has no function that does
        block_holds = holds_site(block, block)
        for node in function_defs(top):
            own = _text(node, lines)
            functions.append(_Function(node, top.name if id(node) in methods else None, own,
                                       block_holds and holds_site(own, block), plain_calls))
    needed = [f for f in functions if f.holds_site]
    if needed and len(needed) < len(functions):
        families = _families(bases)
        aliases = _Aliases(text, script=script_drivers.is_script(text))
        waiting = [f for f in functions if not f.holds_site]
        while waiting:
            reach = _Reach(needed, families, aliases)
            reached, still = [], []
            for f in waiting:  # each function asked once a round: the answer is the same both ways
                (reached if reach(f) else still).append(f)
            if not reached:
                break
            needed.extend(reached)
            waiting = still
    ids = {id(f.node) for f in needed}
    return [f.node for f in functions if id(f.node) in ids]


class _Reach:
    """Whether a function calls a needed one: a module function by its name or a name it is stored under, a
    method through `self`/`super()` in a class of its family, a class by its constructor, or in a script, an
    instance of it through the name it is bound to."""

    def __init__(self, needed: List[_Function], families: Dict[str, Set[str]], aliases: "_Aliases"):
        self.functions = {f.node.name for f in needed if f.class_name is None}
        self.methods = {(f.class_name, f.node.name) for f in needed if f.class_name is not None}
        self.classes = set().union(*(families.get(c, {c}) for c, _ in self.methods)) if self.methods else set()
        self.families = families
        # a library builds its instances from configs, and an instance of unknown arguments runs no forward
        # (calls.py): there only instances built from literals (`Head()`, `Head(16, 4)`) are called with facts
        self.aliases = set().union(set(), *(aliases.of(name) for name in self.functions),
                                   *(aliases.of(name, built_from_literals=not aliases.script) for name in self.classes))

    def __call__(self, f: _Function) -> bool:
        if not f.plain.isdisjoint(self.functions):
            return True
        # `Head(16)` runs Head.__init__ only: an __init__ that builds a class stores the instance, and what calls
        # it later is reached by that call; elsewhere the instance may be called at once (`Head(16)(x)`)
        built = f.plain & self.classes
        if built and (f.node.name != "__init__" or any((c, "__init__") in self.methods for name in built
                                                        for c in self.families.get(name, {name}))):
            return True
        if self.aliases and not (f.plain.isdisjoint(self.aliases) and f.on_self.isdisjoint(self.aliases)):
            return True
        if self.methods and any((c, m) in self.methods for name, m in f.through_names
                                for c in self.families.get(name, ())):
            return True  # Ops.pick(x): the class's static or class method
        if f.class_name is None or not f.on_self:
            return False
        family = self.families.get(f.class_name, {f.class_name})
        return any((c, m) in self.methods for m in f.on_self for c in family)


def _families(bases: Dict[str, Set[str]]) -> Dict[str, Set[str]]:
    """Each class of the file with its parents and children in the file, at any depth: a method reached
    through `self` may be defined by any of them."""
    parents = {name: {b for b in found if b in bases} for name, found in bases.items()}
    families = {}
    for name in bases:
        family, todo = {name}, [name]
        while todo:
            current = todo.pop()
            related = parents.get(current, set()) | {child for child, ps in parents.items() if current in ps}
            todo.extend(related - family)
            family |= related
        families[name] = family
    return families


class _Aliases:
    """The names bound to each class's instance or function, found on first ask by a search for its name
    (a regex over the whole text for every binding costs more than all the rest of the choice)."""

    def __init__(self, text: str, script: bool):
        self.text, self.script, self.found = text, script, {}

    def of(self, target: str, built_from_literals: bool = False) -> Set[str]:
        """Names bound to `target` or to its call (`target(...)`, with literal arguments only if asked)."""
        if target not in self.found:
            self.found[target] = self._search(target)
        return {name for name, literal in self.found[target] if literal or not built_from_literals}

    def _search(self, target: str) -> Set[tuple]:
        text, found = self.text, set()
        for at in word_positions(text, target):
            end = at + len(target)
            line_end = text.find("\n", end)
            line_end = len(text) if line_end == -1 else line_end
            if text.startswith("(", end) or not text[end:line_end].strip():
                bound = _BOUND_TO.search(text, text.rfind("\n", 0, at) + 1, at)
                if bound is not None:
                    found.add((bound.group(1), _LITERAL_ARGUMENTS.match(text, end) is not None))
        return found


def _text(node, lines: List[str]) -> str:
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", ())])
    return "".join(lines[first - 1:node.end_lineno])


def _last_name(node) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""
