"""Parameters a call hands a tensor the caller's code made: such a value is a tensor, never None.

The analysis reads a tensor parameter as possibly None (`x: Optional[Tensor] = None`), so a guard
`if not isinstance(slots, torch.Tensor): slots = torch.tensor(slots, dtype=torch.long)` stays undecided and
its conversion blurs the dtype the caller passed. Under one call's facts, an argument that is an expression
the caller computed (`cache.alloc(n)`, `ids[2:4]`, a name it bound to one) is a tensor on that path: the
guard is decided. A caller's own parameter, an attribute or a `.get()` may still be None.
"""
from __future__ import annotations

import ast
from typing import Dict

from .tree_walk import called_name
from .values import TensorVal

_MAYBE_NONE_CALLS = frozenset({"get", "pop", "getattr", "setdefault"})


def made_by_caller(caller, callee, node: ast.Call, offset: int, facts: Dict[str, object]) -> frozenset:
    """The callee's parameters whose tensor fact comes from an expression the caller computed."""
    if offset < 0:
        return frozenset()  # the values passed are not the call's own arguments (a custom Function's backward)
    params = [p.arg for p in callee.args.posonlyargs + callee.args.args]
    passed = [(params[i + offset], arg) for i, arg in enumerate(node.args)
              if not isinstance(arg, ast.Starred) and i + offset < len(params)]
    passed += [(k.arg, k.value) for k in node.keywords if k.arg is not None]
    return frozenset(name for name, arg in passed
                     if isinstance(facts.get(name), TensorVal) and _computed(caller, arg))


def _computed(caller, arg) -> bool:
    if isinstance(arg, ast.Name):
        return arg.id not in caller.params  # a name the caller bound to a tensor, not one it was handed
    if isinstance(arg, ast.Call):
        return called_name(arg) not in _MAYBE_NONE_CALLS
    return isinstance(arg, (ast.BinOp, ast.UnaryOp, ast.Subscript))


def decided_isinstance(interp, node: ast.Call):
    """`isinstance(x, torch.Tensor)` of such a parameter, still holding what the call passed: True."""
    target = node.args[0] if len(node.args) == 2 else None
    if not isinstance(target, ast.Name) or target.id not in interp.passed_tensors:
        return None
    names = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
    if any(isinstance(n, ast.Attribute) and n.attr == "Tensor" or isinstance(n, ast.Name) and n.id == "Tensor"
           for n in names):
        return True if interp.passed_tensors[target.id] is interp.env.get(target.id) else None
    return None


def decided_is_none(interp, node: ast.Compare):
    """`x is None` / `x is not None` of such a parameter, still holding what the call passed: False / True."""
    if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Is, ast.IsNot)) or not isinstance(node.left, ast.Name) \
            or not (isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value is None):
        return None
    name = node.left.id
    if name not in interp.passed_tensors or interp.passed_tensors[name] is not interp.env.get(name):
        return None
    return isinstance(node.ops[0], ast.IsNot)
