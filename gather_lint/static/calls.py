"""Calls to functions of the same module, analysed again with the caller's facts.

Only 9% of real gather sites have a shape annotation nearby; many helpers get their tensors from
a caller that knows the shapes. A call whose tensor arguments have known shapes re-runs the callee
with those facts bound to its unannotated parameters (memoised per fact tuple, two calls deep).
Findings inside say which call supplied the shapes; the callee's return value flows back.
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Dict, Optional

from ..dims import value as value_of
from .values import DimVal, TensorVal, join

MAX_DEPTH = 2


class ModuleContext:
    def __init__(self, tree: ast.Module, make_interpreter):
        self.functions: Dict[str, ast.AST] = {
            node.name: node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
        self._make = make_interpreter
        self._memo: Dict[tuple, object] = {}

    def call(self, caller, callee, node: ast.Call, args, kwargs):
        facts = _bind(callee, args, kwargs)
        if facts is None or caller.call_depth >= MAX_DEPTH or not any(_informative(v) for v in facts.values()):
            return None
        key = (callee.name, tuple(sorted(facts.items(), key=lambda kv: kv[0])))
        try:
            if key in self._memo:
                return self._memo[key]
        except TypeError:
            return None  # an unhashable fact: do not memoise, do not analyse
        self._memo[key] = None  # recursion guard
        context = f" (shapes from the call at line {node.lineno})"
        interp = self._make(
            lambda call, site, violations, *rest: caller.report(
                call, site, [replace(v, message=v.message + context) for v in violations], *rest),
            lambda flagged, violation, fix_node: caller.flag(
                flagged, replace(violation, message=violation.message + context), fix_node))
        interp.module = self
        interp.call_depth = caller.call_depth + 1
        interp.run_function(callee, facts)
        result = None
        for i, value in enumerate(interp.returns):
            result = value if i == 0 else join(result, value)
        self._memo[key] = result
        return result


def _informative(value) -> bool:
    if isinstance(value, TensorVal):
        return value.shape is not None or value.dtype is not None
    return isinstance(value, DimVal) and value_of(value.dim) is not None


def _bind(callee, args, kwargs) -> Optional[Dict[str, object]]:
    """Caller facts by parameter name; None for calls that do not fit the signature."""
    params = [p.arg for p in callee.args.posonlyargs + callee.args.args]
    if len(args) > len(params) and callee.args.vararg is None:
        return None
    facts = {name: value for name, value in zip(params, args) if isinstance(value, (TensorVal, DimVal))}
    for name, value in kwargs.items():
        if isinstance(value, (TensorVal, DimVal)) and name in params + [p.arg for p in callee.args.kwonlyargs]:
            facts[name] = value
    return facts
