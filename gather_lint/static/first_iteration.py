"""The first pass of a loop that threads state through a step: `for _ in range(n): x, v = step(x, v)`
(or `while not done: x = step(x)`).

A loop body forgets every name it reassigns, because a later iteration may see another value. The
first iteration does not: it runs with the values from before the loop, so a call there is
checked with what the caller built (a float64 state passed to a step that writes into a float32
buffer raises on that first call). Only loops whose body hands a name it reassigns to a call
(`state = step(state)`, the simulation and training-step driver) get this extra pass, outside
other such passes, so its cost stays with the loops that need it.
"""
from __future__ import annotations

import ast
from typing import Dict

from . import tree_walk
from .modules import InstanceVal
from .values import TensorVal


def run(interp, node, row) -> None:
    """Check the body once with the facts from before the loop; what it binds is then dropped."""
    if getattr(interp, "_trial_run", False) or getattr(interp, "_first_iteration", False) or interp.module is None:
        return
    if not _threads_state(node.body, interp.env, interp.module) and not _threads_through_instances(node, row, interp.env):
        return
    saved = (interp.env, interp.returns, interp.informal, interp._comment_used, interp.trace,
             interp.comments.cursor, dict(interp.comments.pending))
    try:
        interp._first_iteration = True
        interp.env = dict(interp.env)
        interp.returns, interp.informal, interp.trace = [], set(interp.informal), None
        if isinstance(node, (ast.For, ast.AsyncFor)):
            interp.assign(node.target, row)
        interp.block(node.body)
    finally:
        (interp.env, interp.returns, interp.informal, interp._comment_used, interp.trace,
         interp.comments.cursor, pending) = saved
        interp.comments.pending = pending
        interp._first_iteration = False


def _threads_state(body, env: Dict[str, object], module) -> bool:
    """A call in the body of a function or method of this file (`x = step(x)`, `g = acc.deposit(x)`) gets
    a name the body reassigns, whose tensor the code before the loop knows something about. A layer
    (`h = layer(h)` over a ModuleList, `self.norm(h)`) runs the same code at every pass: no extra one."""
    return any(_known(env.get(name)) for name in _handed(body, module))


def _threads_through_instances(node, row, env) -> bool:
    """`for block in self.blocks: h = block(h, ids)` over instances of a class of this file: each pass runs that
    class's forward, its first with the tensors from before the loop (a ModuleList of nn layers does not)."""
    if not isinstance(row, InstanceVal) or not isinstance(getattr(node, "target", None), ast.Name):
        return False
    layer = node.target.id
    nodes = [n for stmt in node.body for n in tree_walk.all_nodes(stmt)]
    calls = [n for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == layer]
    return any(_known(env.get(name)) for name in _passed_names(calls) & _assigned_names(nodes))


def _handed(body, module) -> frozenset:
    """Names the body both reassigns and passes to a function or method of the file: found once per loop
    of the file (a loop is run again under every caller's facts)."""
    cache = module.__dict__.setdefault("_loop_handed", {})
    key = id(body)
    if key not in cache:
        callables = _file_callables(module)
        nodes = [n for stmt in body for n in tree_walk.all_nodes(stmt)]
        calls = [n for n in nodes if isinstance(n, ast.Call) and tree_walk.called_name(n) in callables]
        passed, assigned = _passed_names(calls), _assigned_names(nodes)
        # `self.centers = self._update(X, self._assign(X))`: a method of the instance reads what the body stores on self
        if any(isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"
               for n in calls):
            stored = {tree_walk.env_key(n) for n in nodes if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
                      and isinstance(n.value, ast.Name) and n.value.id == "self"}
            passed |= stored
            assigned |= stored
        cache[key] = frozenset(passed & assigned)
    return cache[key]


def _passed_names(calls) -> set:
    """The names handed to these calls as arguments."""
    return {a.id for n in calls for a in list(n.args) + [k.value for k in n.keywords] if isinstance(a, ast.Name)}


def _assigned_names(nodes) -> set:
    return {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _file_callables(module) -> set:
    """Names of the file's module functions and of its classes' methods."""
    if "_loop_callables" not in module.__dict__:
        module._loop_callables = set(module.functions) | {name for _, name in module.methods}
    return module._loop_callables


def _known(value) -> bool:
    return isinstance(value, TensorVal) and (value.dtype is not None or value.shape is not None)
