"""Whether the names a fix writes into the code are bound where it goes.

A fix sized by a name (`.expand(-1, feat_dim)`) is right only where that name holds the size: a shape
comment or a caller may name a size the function itself never binds (`feat_dim` in a `forward` whose
class stored it as `self.feat_dim`). Such a fix would raise NameError, so it is not offered.
"""
from __future__ import annotations

import ast
import builtins
from typing import Callable, Dict, Iterable, Optional, Set

_PLACEHOLDER = "_fixed_expression_"  # what a suffix is appended to, to parse it alone
_BUILTINS = frozenset(dir(builtins))
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_OWN_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda,
               ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_WALKED = (ast.stmt, ast.expr, ast.excepthandler) + ((ast.match_case,) if hasattr(ast, "match_case") else ())


def written_names(violation) -> Set[str]:
    """The plain names the violation's fix texts read (`feat_dim` in `.expand(-1, feat_dim)`)."""
    names: Set[str] = set()
    for text in (violation.fix_suffix, violation.fix_result_suffix):
        if text:
            names |= _names(_PLACEHOLDER + text)
    if violation.fix_argument:
        names |= _names(violation.fix_argument)
    names.discard(_PLACEHOLDER)
    return names - _BUILTINS


def _names(code: str) -> Set[str]:
    try:
        tree = ast.parse(code, mode="eval")
    except (SyntaxError, ValueError):
        return {_PLACEHOLDER + "unparsable"}  # never bound: a fix that is not an expression is not offered
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


class BoundNames:
    """Names bound in the scopes around a line: its functions' parameters and locals, and the module's.
    `module_names`: names the module binds that the parsed tree may lack (constants, imports);
    `whole`: the whole file's tree, parsed on demand when the tree holds only some blocks."""

    def __init__(self, tree: ast.Module, module_names: Iterable[str], whole: Optional[Callable[[], ast.Module]] = None):
        self._tree = tree
        self._whole = whole
        self._module: Optional[Set[str]] = None
        self._module_names = set(module_names)
        # names bound around each chain of enclosing functions: the lines of one function share them, and
        # each function's body is walked once, however many of its lines a fix is checked at
        self._by_chain: Dict[tuple, Set[str]] = {}
        self._inner: Dict[int, list] = {}  # id(node) -> the defs and classes directly inside it

    def all_bound(self, names: Set[str], line: int) -> bool:
        names = set(names) - _BUILTINS
        if not names:
            return True
        if names <= self._at(line):
            return True
        if self._whole is not None:  # a module-level name in a block the partial tree left out
            whole = self._whole()
            if whole is not self._tree:
                self._module = (self._module or set()) | bindings(whole.body)
                self._by_chain.clear()
                self._whole = None
                return names <= self._at(line)
        return False

    def _at(self, line: int) -> Set[str]:
        chain = self._enclosing(line)
        key = tuple(id(scope) for scope in chain)
        if key not in self._by_chain:
            if self._module is None:
                self._module = bindings(self._tree.body) | self._module_names
            found = set(self._module)
            for scope in chain:
                found |= _parameters(scope) | bindings(scope.body if isinstance(scope.body, list) else [scope.body])
            self._by_chain[key] = found
        return self._by_chain[key]

    def _enclosing(self, line: int):
        """The functions (outermost first) whose lines hold `line`; class bodies do not scope their methods."""
        node, chain = self._tree, []
        while True:
            if id(node) not in self._inner:  # listed once per node: a walk per line is quadratic in a long scope
                self._inner[id(node)] = list(_children_with_defs(node))
            inner = next((child for child in self._inner[id(node)]
                          if child.lineno <= line <= (child.end_lineno or child.lineno)), None)
            if inner is None:
                return chain
            if isinstance(inner, _SCOPES):
                chain.append(inner)
            node = inner


def _children_with_defs(node):
    """The defs and classes directly (or under statements) inside `node`, not inside a nested def."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        child = stack.pop()
        if isinstance(child, (*_SCOPES, ast.ClassDef)):
            yield child
        elif isinstance(child, _WALKED):
            stack.extend(ast.iter_child_nodes(child))


def _parameters(scope) -> Set[str]:
    a = scope.args
    params = a.posonlyargs + a.args + a.kwonlyargs + [p for p in (a.vararg, a.kwarg) if p is not None]
    return {p.arg for p in params}


def bindings(body) -> Set[str]:
    """Names a block binds in its own scope (assignments, loops, imports, defs; not inside nested scopes)."""
    found: Set[str] = set()
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
            continue
        if isinstance(node, _OWN_SCOPES):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            found.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            found.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found.add(node.name)
        stack.extend(ast.iter_child_nodes(node))
    return found
