"""Rows picked by one boolean mask: `x[alive]` and `y[alive]` hold the same number of rows.

A bool mask keeps an unknown count of rows, but every tensor it picks from keeps the same count:
`rewards[alive]` [K, 1] and `critic(obs[alive]).max(1)[0]` [K] meet as a column and a vector of the
same K (GL006's [K, K]). The count is named after the mask (`alive.sum()`) when the mask is a name
given once in the function, so two reads of it are certainly the same mask; anything else (a mask
made again in a loop, a fresh `torch.rand(n) < p` at each read) keeps the count unknown.
"""
from __future__ import annotations

import ast
from typing import Dict, Optional

from ..dims import Shape, Sym
from .tree_walk import own_nodes
from .values import TensorVal


def counted(interp, node: ast.Subscript, key, result):
    """`x[mask]` whose row count torch leaves open, named `mask.sum()` when the mask is fixed here."""
    if not isinstance(result, TensorVal) or not isinstance(key, TensorVal) or key.dtype != "bool":
        return result
    shape = result.shape
    if shape is None or shape.variadic or not shape.dims or shape.dims[0] is not None:
        return result
    name = _mask_name(node.slice)
    if name is None or _stores(interp).get(name[0], 0) > 1:
        return result
    return result.with_(shape=Shape((Sym(name[1]),) + tuple(shape.dims[1:])))


def _mask_name(key) -> Optional[tuple]:
    """(name, count text) for `mask`, `~mask` and `mask.bool()`."""
    if isinstance(key, ast.Name):
        return key.id, f"{key.id}.sum()"
    if isinstance(key, ast.UnaryOp) and isinstance(key.op, ast.Invert) and isinstance(key.operand, ast.Name):
        return key.operand.id, f"(~{key.operand.id}).sum()"
    if isinstance(key, ast.Call) and not key.args and isinstance(key.func, ast.Attribute) and key.func.attr == "bool" \
            and isinstance(key.func.value, ast.Name):
        return _mask_name(key.func.value)
    return None


def _stores(interp) -> Dict[str, int]:
    """How often each name is bound in the function being run (its parameters count once); read once,
    on the first mask lookup."""
    found = getattr(interp, "_mask_stores", None)
    if found is not None:
        return found
    scope = getattr(interp, "function", None)
    if scope is None:  # the module body: a script's names are rebound freely; nothing is named
        interp._mask_stores = _Everything()
        return interp._mask_stores
    found: Dict[str, int] = {}
    args = scope.args
    for arg in args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]:
        found[arg.arg] = 1
    for node in own_nodes(scope):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            found[node.id] = found.get(node.id, 0) + 1
        elif _changed_in_place(node):  # mask[0] = False, mask.logical_and_(m): another count after it
            found[node.value.id if isinstance(node, ast.Subscript) else node.func.value.id] = 2
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            for inner in ast.walk(node):  # a name bound in a loop is a new mask each time round
                if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                    found[inner.id] = found.get(inner.id, 0) + 2
    interp._mask_stores = found
    return found


def _changed_in_place(node) -> bool:
    if isinstance(node, ast.Subscript):
        return isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.endswith("_") \
        and not node.func.attr.startswith("_") and isinstance(node.func.value, ast.Name)


class _Everything(dict):
    """Every name counts as rebound."""

    def get(self, key, default=None):
        return 2
