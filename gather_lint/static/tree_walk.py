"""Walks of an ast tree in ast.walk's order, cheaper than ast.walk where the analysis runs them on
every file: no generator per node, and statements only where only statements can matter."""
from __future__ import annotations

import ast
import collections
from typing import Iterator, List, Optional

_AST = ast.AST
_BODIES = (ast.stmt, ast.excepthandler, ast.match_case)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef)


def called_name(node: ast.AST) -> Optional[str]:
    """`f` for a call `f(...)` or `x.f(...)`; None for anything else (a call of a subscript, not a call)."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def last_name(node: ast.AST) -> Optional[str]:
    """`x` for `x` or `a.b.x`; None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def full_slice(node: ast.AST) -> bool:
    """`:` with no bounds and no step."""
    return isinstance(node, ast.Slice) and node.lower is None and node.upper is None and node.step is None


def subscripted_name(node: ast.AST) -> Optional[str]:
    """The name under subscripts: `x[i][:, j]` -> x; None when anything else is under them."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def int_literal(node: ast.AST) -> Optional[int]:
    """The int a literal spells (`3`, `-1`, `- -2`); None for anything else (bools included)."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = int_literal(node.operand)
        return -inner if inner is not None else None
    return None


def env_key(node: ast.AST) -> Optional[str]:
    """The environment key of `x` or `x.attr` (a name, or an attribute of a name: `self.w`, `ctx.index`);
    None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def all_nodes(tree: ast.AST) -> List[ast.AST]:
    """list(ast.walk(tree)), same nodes in the same (breadth-first) order; a new list for each caller. The
    nodes under `tree` are kept on it, so that the checks that each walk the same function (or statement)
    share one walk: without `tree` itself, as a list holding its owner would be a cycle for the collector."""
    below = getattr(tree, "_gather_lint_below", None)
    if below is not None:
        return [tree, *below]
    nodes = [tree]
    append, extend = nodes.append, nodes.extend
    i = 0
    while i < len(nodes):
        node = nodes[i]
        i += 1
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                extend([v for v in value if isinstance(v, _AST)])
            elif isinstance(value, _AST):
                append(value)
    tree._gather_lint_below = nodes[1:]
    return nodes


def stored_names(stmt: ast.AST) -> List[ast.Name]:
    """The names a statement (and every statement in it) assigns; kept on the node, and built from the
    lists of its inner statements, so that forgetting at every level of a nest walks each node once."""
    found = getattr(stmt, "_gather_lint_stored", None)
    if found is not None:
        return found
    found = []
    for field in stmt._fields:
        value = getattr(stmt, field, None)
        items = value if isinstance(value, list) else [value]
        if items and isinstance(items[0], _BODIES):  # a body: its statements' lists, each built once
            for inner in items:
                found.extend(stored_names(inner))
        else:
            found.extend(node for item in items if isinstance(item, _AST) for node in all_nodes(item)
                         if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store))
    stmt._gather_lint_stored = found
    return found


def statements(top: ast.AST) -> Iterator[ast.AST]:
    """`top` and the statements under it, in ast.walk's order, visiting statements only: the
    expressions are most of a tree's nodes, and defs, imports and loops are always statements."""
    todo = collections.deque([top])
    while todo:
        node = todo.popleft()
        yield node
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list) and value and isinstance(value[0], _BODIES):
                todo.extend(value)


def function_defs(top: ast.AST) -> List[ast.AST]:
    """The function definitions in `top`, in ast.walk's order; kept on the node (the block choice and the
    syntax checks each list a block's functions). Callers must not change the list."""
    inner = getattr(top, "_gather_lint_functions", None)
    if inner is None:  # kept without `top` itself: a list on a def holding that def is a cycle for the collector
        inner = top._gather_lint_functions = [node for node in statements(top) if isinstance(node, _SCOPES) and node is not top]
    return [top, *inner] if isinstance(top, _SCOPES) else inner


_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def scopes(tree: ast.Module) -> List[ast.AST]:
    """The module and every function defined in it: the scopes a syntax-only check reads one at a time."""
    return [tree] + [node for top in tree.body for node in function_defs(top)]


def own_nodes(scope) -> List[ast.AST]:
    """A scope's nodes in source order (depth first), not those of functions, classes or lambdas defined
    in it: they are scopes of their own. Kept on the scope's node: a dozen syntax checks read the same
    scopes (the list is shared: callers must not change it)."""
    found = getattr(scope, "_gather_lint_own_nodes", None)
    if found is not None:
        return found
    found, stack = [], [node for node in reversed(scope.body) if not isinstance(node, _NESTED)]
    append = found.append
    while stack:
        node = stack.pop()
        append(node)
        children = []
        for field in node._fields:  # ast.iter_child_nodes' order, without a generator per node
            value = getattr(node, field, None)
            if isinstance(value, list):
                children.extend(v for v in value if isinstance(v, _AST))
            elif isinstance(value, _AST):
                children.append(value)
        stack.extend(child for child in reversed(children) if not isinstance(child, _NESTED))
    scope._gather_lint_own_nodes = found
    return found


def root_name(node) -> Optional[str]:
    """The name under method calls and subscripts: `ids[:, 1:].reshape(-1)` -> ids."""
    for _ in range(8):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value
        elif isinstance(node, ast.Subscript):
            node = node.value
        else:
            break
    return node.id if isinstance(node, ast.Name) else None


def literal_numbers(node, kinds=(int,)):
    """Every number of a nested list/tuple literal (`[[1, -2], [3, 4]]`) whose type is one of `kinds`, in
    order; None when anything else is in it. bool is never a number here."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = literal_numbers(node.operand, kinds)
        return [-inner[0]] if inner is not None and len(inner) == 1 and not isinstance(node.operand, (ast.List, ast.Tuple)) else None
    if isinstance(node, ast.Constant):
        return [node.value] if type(node.value) in kinds else None
    if isinstance(node, (ast.List, ast.Tuple)):
        found = []
        for item in node.elts:
            inner = literal_numbers(item, kinds)
            if inner is None:
                return None
            found.extend(inner)
        return found
    return None
