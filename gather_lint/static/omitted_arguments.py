"""The path a helper takes when an optional argument is left out.

Library loss helpers shift their labels only when the caller did not do it:
``def causal_lm_loss(logits, labels, shift_labels=None): if shift_labels is None: shift_labels = labels[..., 1:]``.
A summary of such a helper reads `if <param> is None:` (and `is not None`'s else branch) as taken, for a
parameter whose default is None, and holds only at calls that leave that parameter out.
"""
from __future__ import annotations

import ast
from typing import Dict, FrozenSet, Optional

from . import tree_walk


def defaulting_to_none(fn: ast.FunctionDef) -> Dict[str, int]:
    """{parameter: position} of the parameters whose default is None (keyword-only ones at position -1)."""
    positional = fn.args.posonlyargs + fn.args.args
    out: Dict[str, int] = {}
    for i, (arg, default) in enumerate(zip(positional[len(positional) - len(fn.args.defaults):], fn.args.defaults)):
        if _none(default):
            out[arg.arg] = positional.index(arg)
    for arg, default in zip(fn.args.kwonlyargs, fn.args.kw_defaults):
        if default is not None and _none(default):
            out[arg.arg] = -1
    return out


def taken_when_omitted(test: ast.expr, omittable) -> Optional[tuple]:
    """(parameter, True) for `p is None`, (parameter, False) for `p is not None`: which branch runs when p is left out."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name) \
            and test.left.id in omittable and _none(test.comparators[0]):
        if isinstance(test.ops[0], ast.Is):
            return test.left.id, True
        if isinstance(test.ops[0], ast.IsNot):
            return test.left.id, False
    return None


def filled_default(stmt: ast.If, omittable) -> Optional[str]:
    """`if p is None: p = ...` (also `if labels is not None and p is None:`) with no else, for a parameter p
    defaulting to None: p, whose value after the statement is the body's when the call leaves p out."""
    if stmt.orelse:
        return None
    tests = stmt.test.values if isinstance(stmt.test, ast.BoolOp) and isinstance(stmt.test.op, ast.And) else [stmt.test]
    checked = [taken_when_omitted(t, omittable) for t in tests]
    if any(c is None for c in checked) or _leaves(stmt):
        return None
    assigned = {t.id for s in stmt.body if isinstance(s, ast.Assign) for t in s.targets if isinstance(t, ast.Name)}
    filled = [name for name, when_omitted in checked if when_omitted and name in assigned]
    return filled[0] if len(filled) == 1 else None


def given_path(stmt: ast.If, omittable) -> Optional[str]:
    """`if p is not None:` with no else, for a parameter p defaulting to None: p, whose body is the path of
    a call that gives p (a forward's `if labels is not None:` training path). A body that leaves early
    (`return`, `raise`, `break`, `continue`) is not: what follows it is the other path."""
    if stmt.orelse:
        return None
    taken = taken_when_omitted(stmt.test, omittable)
    return taken[0] if taken is not None and not taken[1] and not _leaves(stmt) else None


def passed(call: ast.Call, assumed: FrozenSet[tuple]) -> bool:
    """Whether the call gives one of the `assumed` (parameter, position) left out (or may, through `*`/`**`)."""
    if not assumed:
        return False
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return True
    given = {k.arg for k in call.keywords}
    return any(name in given or 0 <= position < len(call.args) for name, position in assumed)


def _leaves(stmt: ast.If) -> bool:
    """The body leaves early (these are statements: the walk skips expressions)."""
    return any(isinstance(n, _LEAVING) for s in stmt.body for n in tree_walk.statements(s))


_LEAVING = (ast.Return, ast.Raise, ast.Break, ast.Continue)


def _none(node) -> bool:
    return isinstance(node, ast.Constant) and node.value is None
