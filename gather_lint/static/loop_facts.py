"""Tensors a loop reassigns without changing their shape: `for layer in self.layers: h = layer(h)`.

A loop body normally forgets every name it assigns, since a later iteration may see another value.
When a name's shape or dtype comes out of one run of the body exactly as it went in, with every
other name the body assigns unknown, it holds on every iteration: the loop keeps it (an array's dtype too).
"""
from __future__ import annotations

import ast
from typing import Dict

from ..dims import join_shape
from . import appended_samples
from .numpy_values import ArrayVal
from .scalars import NumberVal, is_float_number
from .tensor_ops import Repeated
from .values import SeqVal, TensorVal

_MAX_DEPTH = 3  # calls inside the trial run return their callee's own result (see calls.MAX_DEPTH)
_MAX_LINES = 12  # layer loops are short; a long body (a decoding loop) would double its analysis cost


def invariant(interp, node, entry: Dict[str, object], row) -> Dict[str, TensorVal]:
    """{name: value} for the known tensors the loop reassigns but keeps the shape of.
    `entry` holds the values, before the loop, of the names it reassigns (now forgotten)."""
    if getattr(interp, "_trial_run", False) or (node.end_lineno or node.lineno) - node.lineno > _MAX_LINES:
        return {}  # an inner loop during an outer loop's trial, or a long body: forget, as before
    candidates = {k: v for k, v in entry.items() if isinstance(v, (ArrayVal, TensorVal))}
    # a float the body recomputes from floats (`running = r + gamma * running`) stays a float, its value unknown
    candidates.update({k: NumberVal() for k, v in entry.items() if is_float_number(v)})
    if not candidates:
        return {}
    saved = (interp.env, interp.returns, interp.report, interp.flag, interp.informal, interp._comment_used,
             interp.trace, interp.call_depth, interp.comments.cursor, dict(interp.comments.pending))
    try:
        interp._trial_run = True
        interp.env = {**interp.env, **candidates}
        interp.returns, interp.informal, interp.trace = [], set(interp.informal), None
        interp.report = interp.flag = _silent  # the real run reports; this one only measures
        interp.call_depth = max(interp.call_depth, _MAX_DEPTH)  # no memoised runs with facts from here
        if isinstance(node, (ast.For, ast.AsyncFor)):
            interp.assign(node.target, row)
        interp.block(node.body)
        after = interp.env
        appended = {name: appended_samples.carried(interp, node.body, name) for name in candidates
                    if isinstance(candidates[name], TensorVal)}  # idx = cat((idx, idx_next)), read while it holds
    finally:
        (interp.env, interp.returns, interp.report, interp.flag, interp.informal, interp._comment_used,
         interp.trace, interp.call_depth, interp.comments.cursor, pending) = saved
        interp.comments.pending = pending
        interp._trial_run = False
    kept = {}
    for name, before in candidates.items():
        now = after.get(name)
        if isinstance(before, NumberVal):
            if is_float_number(now):
                kept[name] = before
            continue
        if isinstance(before, ArrayVal):
            if now == before:  # idx = np.concatenate([idx, more]) keeps a float64 idx float64
                kept[name] = before
            continue
        if not isinstance(now, TensorVal):
            continue
        # a dim the body changes is not known at a later pass; the rank, where the body keeps it, is
        shape = before.shape if now.shape == before.shape else join_shape(before.shape, now.shape)
        dtype = before.dtype if now.dtype == before.dtype else None  # a dtype the body changes is not kept
        domain = before.domain if dtype and now.domain == before.domain else None
        if dtype and (before.domain is None or before.domain.category):  # (a name's "ids": no range)
            domain = appended.get(name) or domain
        # a tensor on entry and after the body is a tensor at every pass, its shape and dtype known or not:
        # `nodes = torch.unique(nodes / 2)` is still a tensor (and its division still a float)
        kept[name] = TensorVal(shape, dtype, domain, before.origin if shape is not None or dtype is not None else "")
    return kept


def _silent(*args, **kwargs) -> None:
    return None


def counted_appends(node, before: Dict[str, object], after: Dict[str, object], rounds) -> Dict[str, object]:
    """{name: a list of `rounds` like items} for the lists empty before a `for` whose body appends to them once
    per round: one top-level `name.append(x)` statement, no other statement naming the list, no break or
    continue (`for _, y in dataset: rows.append(y)` over 40 rows makes 40). `after`: the env the body left."""
    if not isinstance(rounds, int) or node.orelse or any(isinstance(n, (ast.Break, ast.Continue))
                                                         for stmt in node.body for n in ast.walk(stmt)):
        return {}
    found = {}
    for stmt in node.body:
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append"
                and isinstance(call.func.value, ast.Name) and len(call.args) == 1 and not call.keywords):
            continue
        name = call.func.value.id
        empty = before.get(name)
        grown = after.get(name)
        mentions = sum(1 for other in node.body for n in ast.walk(other) if isinstance(n, ast.Name) and n.id == name)
        if isinstance(empty, SeqVal) and not empty.items and not empty.names and isinstance(grown, Repeated) and mentions == 1:
            found[name] = Repeated(grown.element, rounds)
    return found
