"""A per-row read by syntax: `x.gather(d, idx)`, `torch.gather(x, d, idx)`, `take_along_dim(x, idx)` and the
row-wise pick `x[torch.arange(B), idx]` (also with `rows = torch.arange(B)` bound earlier): (tensor, index)."""
from __future__ import annotations

import ast
from typing import Dict, Optional, Tuple

from .tree_walk import called_name

_GATHERS = {"gather", "take_along_dim"}
_ROWS = {"arange", "range"}


def picked(node, values: Dict[str, ast.expr]) -> Optional[Tuple[ast.expr, ast.expr]]:
    """(tensor, index) of a per-row read; `values` maps names to the expressions bound to them."""
    if isinstance(node, ast.Call) and called_name(node) in _GATHERS:
        method = isinstance(node.func, ast.Attribute) and not (isinstance(node.func.value, ast.Name)
                                                                 and node.func.value.id == "torch")
        args = ([node.func.value] if method else []) + list(node.args)
        keywords = {k.arg: k.value for k in node.keywords}
        source = keywords.get("input", args[0] if args else None)
        position = 2 if called_name(node) == "gather" else 1
        index = keywords.get("index", keywords.get("indices", args[position] if len(args) > position else None))
        return (source, index) if source is not None and index is not None else None
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Tuple) \
            and len(node.slice.elts) >= 2 and called_name(bound(node.slice.elts[0], values)) in _ROWS:
        return node.value, node.slice.elts[1]
    return None


def bound(node, values):
    """The expression a name is bound to in `values`; anything else as it is."""
    return values.get(node.id, node) if isinstance(node, ast.Name) else node
