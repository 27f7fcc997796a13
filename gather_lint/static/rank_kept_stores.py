"""Attributes that other methods rebind with ops that keep the rank: `self.keys =
self.keys.index_select(0, beam_idx)` (a cache reordered per beam step), `self.alpha =
self.alpha.gather(0, ids)`, `self.mem = torch.roll(self.mem, 1, 0)`. Their sizes change, their rank
does not: other methods see a tensor of the `__init__` rank with unknown sizes and dtype.

`torch.cat([self.buf, x])` is left out: a 1-d empty tensor concatenates with a tensor of any rank."""
from __future__ import annotations

import ast

# methods whose result has their receiver's rank (gather's index must have it too)
# (no arithmetic, clamp or where: a broadcast partner of higher rank raises the rank)
_RANK_KEEPING = {"index_select", "gather", "masked_fill", "masked_fill_", "roll", "flip",
                 "clone", "detach", "contiguous", "to", "type_as", "type", "float", "double", "half", "bfloat16",
                 "long", "int", "cuda", "cpu", "narrow", "index_fill", "index_copy",
                 "index_add", "scatter", "scatter_add", "scatter_reduce", "repeat_interleave", "requires_grad_",
                 "abs", "exp", "log", "sqrt", "sigmoid", "tanh", "relu", "softmax", "log_softmax", "neg"}
_TORCH_RANK_KEEPING = {"index_select", "gather", "roll", "flip", "narrow"}


def keeps_rank(stmt, name: str) -> bool:
    """`self.name = <rank-keeping chain starting at self.name>`."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Attribute)):
        return False
    value = stmt.value
    while True:
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _RANK_KEEPING \
                and not _is_torch(value.func.value):
            if value.func.attr == "repeat_interleave" and _without_dim(value):
                return False  # flattens the input first
            value = value.func.value
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and _is_torch(value.func.value) \
                and value.func.attr in _TORCH_RANK_KEEPING and value.args:
            value = value.args[0]
        elif isinstance(value, ast.Subscript) and _all_slices(value.slice):
            value = value.value
        else:
            break
    return value is not stmt.value and _is_self_attr(value, name)


def _is_self_attr(node, name: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.value, ast.Name) and node.value.id == "self"


def _is_torch(node) -> bool:
    return isinstance(node, ast.Name) and node.id == "torch"


def _without_dim(call: ast.Call) -> bool:
    return len(call.args) < 2 and not any(k.arg == "dim" for k in call.keywords)


def _all_slices(key) -> bool:
    parts = key.elts if isinstance(key, ast.Tuple) else [key]
    return all(isinstance(p, ast.Slice) for p in parts)
