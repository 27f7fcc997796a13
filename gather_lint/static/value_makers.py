"""Which `torch.<maker>(...)` call made a value, read in the syntax: through value-keeping methods (`.long()`,
`.unsqueeze(0)`, `[None]`) and plain local bindings (`pos = torch.arange(n)`), in a function or a script's driver."""
from __future__ import annotations

import ast
import bisect
from typing import Optional

from . import script_drivers
from .tree_walk import full_slice


_KEEPS_VALUES = {"unsqueeze", "expand", "expand_as", "view", "reshape", "long", "to", "repeat", "contiguous",
                 "type_as", "clone", "detach", "cuda", "flatten", "view_as"}


def _made_by(interp, node, makers, line: Optional[int] = None, depth: int = 0):
    """The `torch.<maker>(...)` call the ids are, through value-keeping methods and local names."""
    line = node.lineno if line is None else line
    while True:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _KEEPS_VALUES:
            node = node.func.value
        elif isinstance(node, ast.Subscript) and _adds_axes_only(node.slice):
            node = node.value
        else:
            break
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in makers \
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "torch":
        return node
    if "arange" in makers and python_range(interp, node) is not None:
        return node  # a key `range(n)` (or `list(range(n))`) indexes as `torch.arange(n)` does
    scope = interp.function or _driver_at(interp, line)
    if isinstance(node, ast.Name) and depth < 3 and scope is not None:
        bound = _binding_before(scope, node.id, line)
        return _made_by(interp, bound.value, makers, bound.lineno, depth + 1) if bound is not None else None
    return None


def python_range(interp, node) -> Optional[ast.Call]:
    """The `range(n)` / `range(a, b)` call that `node` is, or holds as `list(range(...))` (neither name rebound)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "list" \
            and len(node.args) == 1 and not node.keywords and "list" not in interp.env:
        node = node.args[0]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range" \
            and 1 <= len(node.args) <= 2 and not node.keywords and "range" not in interp.env:
        return node
    return None


def made_by(interp, node, makers):
    """The `torch.<maker>(...)` call `node` is, through value-keeping methods and local names; else None."""
    return _made_by(interp, node, makers)


def _driver_at(interp, line: int):
    """The script's `if __name__ == "__main__":` block holding `line`, for lookups in the driver itself."""
    tree = getattr(interp.module, "tree", None)
    if tree is None:
        return None
    drivers = getattr(tree, "_gather_lint_drivers", None)
    if drivers is None:  # the module body looked over once, not at every lookup of a long script
        drivers = tree._gather_lint_drivers = [node for node in getattr(tree, "body", ())
                                               if script_drivers.is_guard(node)]
    return next((node for node in drivers if node.lineno <= line <= (node.end_lineno or node.lineno)), None)


def _adds_axes_only(key) -> bool:
    """`[None]`, `[None, :]`, `[:, None]`: every value stays."""
    items = key.elts if isinstance(key, ast.Tuple) else [key]
    full = [full_slice(k) for k in items]
    nones = [isinstance(k, ast.Constant) and k.value is None for k in items]
    return any(nones) and all(f or n for f, n in zip(full, nones))


def _binding_before(function, name: str, line: int):
    """The last plain assignment to `name` before `line`, when every binding of the name in the function
    is a plain assignment in its top-level body (so the last one before the line is the one that holds)."""
    lines, stmts = _top_bindings(function).get(name, ((), ()))
    at = bisect.bisect_left(lines, line)
    return stmts[at - 1] if at else None


def _written(target):
    """The names a target writes: itself, the object under `x[i]` / `x.a`, each of a tuple's; not the names
    a key reads (`rows` of `out[rows, cols] = v`)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Subscript, ast.Attribute, ast.Starred)):
        return _written(target.value)
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for e in target.elts for n in _written(e)]
    return []


def _top_bindings(function):
    """name -> (lines, ascending; the assignment at each) for the names bound only by plain `name = ...`
    statements of the top-level body (of two on one line, the first); one walk per function, kept on its
    node, where a look back per lookup walked the whole function each time."""
    found = getattr(function, "_gather_lint_top_bindings", None)
    if found is not None:
        return found
    top = {id(stmt) for stmt in function.body}
    plain, other = {}, set()
    for node in ast.walk(function):
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr, ast.comprehension))
            else [i.optional_vars for i in node.items if i.optional_vars is not None] if isinstance(node, ast.With) else [])
        if not targets:
            continue
        if isinstance(node, ast.Assign) and id(node) in top and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            plain.setdefault(node.targets[0].id, {}).setdefault(node.lineno, node)
        else:  # any name written in such a target (`x` of `x[i] = v` too) has no one binding that holds
            other.update(n for t in targets for n in _written(t))
    found = {name: (sorted(at), [at[n] for n in sorted(at)]) for name, at in plain.items() if name not in other}
    function._gather_lint_top_bindings = found
    return found
