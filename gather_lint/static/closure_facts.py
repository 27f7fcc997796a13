"""Facts a nested function reads from the function that defines it (a closure's free names).

`def make_merge(...): idx = ...; def merge(x): ... x.scatter_reduce(-2, idx, ...)`: the nested
function is analysed on its own, where `idx` would be unknown. A free name keeps, at every call of
the nested function, the value its enclosing function last bound; that is the value known where the
`def` runs when the enclosing function binds the name once, outside any loop, and no scope declares
it `nonlocal` or `global`. Only such names are carried, and only from the enclosing function's own
analysis (a caller's facts hold for that call, not for every closure made). Attributes of such a
name go along (`self.n_heads` inside `def shape(x)` of a method) unless either function writes them.

A call of the nested function in its enclosing one (`q = shape(query)`) runs it with the call's
facts, when its name is bound nowhere else there."""
from __future__ import annotations

import ast
from typing import Dict, Set

from .config import DictVal
from .python_types import ListVal
from .tensor_ops import Repeated
from .values import QualName

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def defined(interp, nested) -> None:
    """At `def nested` inside a function: its closure's facts, and its name for calls (local_callee)."""
    record(interp, nested)
    if not hasattr(interp, "local_defs"):
        interp.local_defs = {}
    interp.local_defs[nested.name] = nested


def record(interp, nested) -> None:
    """At `def nested` inside a function: remember the free names' facts for its own analysis."""
    module = interp.module
    enclosing = interp.function
    if module is None or enclosing is None or not interp.in_function or interp.call_depth != 0:
        return
    closures = module.closures
    if nested in closures:
        return
    env = interp.env
    free = free_names(nested)
    # `self.heads` read inside `def split(x)` of a method: attribute facts of a free name go along
    wanted = {name for name in env if name.split(".", 1)[0] in free and name.count(".") <= 1
              and carriable(env[name]) and name not in interp.informal}
    if not wanted:
        return  # it reads nothing this function knows: no scan of the enclosing function
    scan = getattr(interp, "_closure_scan", None)
    if scan is None or scan[0] is not enclosing:  # one walk of the enclosing function for all its defs
        scan = interp._closure_scan = (enclosing, *_bound_once(enclosing))
    _, once, defs_in_loops, stored = scan
    if nested in defs_in_loops:
        return
    stored = stored | bound_once_in(nested.body, ())[2]  # attributes either function writes hold no one value
    # (shape comments stay in their function: informal names were left out above)
    closures[nested] = {name: env[name] for name in wanted if _holds(name, once, stored)}


def carriable(value) -> bool:
    """A value that holds wherever the name is read: not a list or dict, which any code holding them
    may fill or empty after the binding (`history.append(x)` needs no rebinding)."""
    if value is None or isinstance(value, (QualName, ListVal, DictVal, Repeated)):
        return False
    return True


def local_callee(interp, name: str):
    """`split(x)` of a function defined in this one, under a name bound nowhere else here."""
    node = getattr(interp, "local_defs", {}).get(name)
    if node is None or interp.env.get(name) is not None or interp.function is None:
        return None
    scan = getattr(interp, "_closure_scan", None)
    if scan is None or scan[0] is not interp.function:
        scan = interp._closure_scan = (interp.function, *_bound_once(interp.function))
    return node if name in scan[1] and node not in scan[2] else None


def _holds(key: str, once, stored) -> bool:
    """A free name bound once; an attribute of one that neither function writes."""
    if "." not in key:
        return key in once
    return key.split(".", 1)[0] in once and key not in stored


def bind(interp, nested) -> None:
    """Before the nested function's own analysis: its free names' facts (its parameters bind later)."""
    interp.env.update(interp.module.closures.get(nested, {}))


def _bound_once(enclosing):
    """Names `enclosing` binds exactly once outside loops (parameters included), and the functions
    it defines inside loops."""
    args = enclosing.args
    params = [p.arg for p in args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]]
    return bound_once_in(enclosing.body, params)


def bound_once_in(body, params, look_inside: bool = True):
    """Names a scope whose statements are `body` binds exactly once outside loops (`params` count
    once each), and the functions it defines inside loops. `look_inside`: also drop the names a
    function or class defined here declares `nonlocal` or `global` (a walk of each). Third: the
    `x.attr` keys it stores to."""
    counts: Dict[str, int] = {}
    for param in params:
        counts[param] = counts.get(param, 0) + 1
    declared: Set[str] = set()
    defs_in_loops = set()
    stored: Set[str] = set()
    stack = [(stmt, False) for stmt in body]
    while stack:
        node, in_loop = stack.pop()
        if isinstance(node, (ast.Nonlocal, ast.Global)):
            declared.update(node.names)
        if isinstance(node, _SCOPES):
            if in_loop:
                defs_in_loops.add(node)
            if not isinstance(node, ast.Lambda):
                counts[node.name] = counts.get(node.name, 0) + (2 if in_loop else 1)
            if look_inside:
                declared.update(_declared_inside(node))
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            counts[node.id] = counts.get(node.id, 0) + (2 if in_loop else 1)
        elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name):
            stored.add(f"{node.value.id}.{node.attr}")
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            counts[node.target.id] = counts.get(node.target.id, 0) + 2  # a rebinding of a bound name
        else:
            for name in _other_binding(node):  # import, except ... as, match patterns
                counts[name] = counts.get(name, 0) + 2  # rare: never trusted as the one binding
        inside = in_loop or isinstance(node, _LOOPS)
        stack.extend((child, inside) for child in ast.iter_child_nodes(node))
    return {name for name, n in counts.items() if n == 1} - declared, defs_in_loops, stored


_OTHER_BINDINGS = tuple(getattr(ast, kind) for kind in ("alias", "ExceptHandler", "MatchAs", "MatchStar", "MatchMapping")
                        if hasattr(ast, kind))


def _other_binding(node):
    if not isinstance(node, _OTHER_BINDINGS):
        return ()
    if isinstance(node, ast.alias):
        return [(node.asname or node.name).split(".")[0]]
    if isinstance(node, ast.ExceptHandler) and node.name:
        return [node.name]
    name = getattr(node, "name", None) if type(node).__name__ in ("MatchAs", "MatchStar") else None
    rest = getattr(node, "rest", None) if type(node).__name__ == "MatchMapping" else None
    return [n for n in (name, rest) if n]


def _declared_inside(scope) -> Set[str]:
    return {name for node in ast.walk(scope) if isinstance(node, (ast.Nonlocal, ast.Global)) for name in node.names}


def free_names(nested) -> Set[str]:
    """Names `nested` reads and never binds anywhere inside it (over-counting its bindings only
    drops names, never carries a wrong one)."""
    read, bound = set(), set()
    for node in ast.walk(nested):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not nested:
            bound.add(node.name)
        elif isinstance(node, (ast.Nonlocal, ast.Global)):
            bound.update(node.names)
        else:
            bound.update(_other_binding(node))
    return read - bound
