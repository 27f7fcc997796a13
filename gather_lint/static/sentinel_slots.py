"""A -1 the code reads on purpose: the last entry is one the code made for it, not padding read by mistake.

Two facts, each from the function's own code. The table read was grown by one entry along the read
dim (`padded = torch.cat([feats, feats.new_zeros(1, D)])`, `F.pad(feats, (0, 0, 0, 1))`, or the same call
indexed where it is made), so -1 reads that appended entry (a zero row for a missing neighbour). Or the -1 was appended to the index, its
result slot is written by the code right after the read:

    idx = torch.cat((kept, torch.tensor([-1])))   # one extra entry, last
    s = s[idx][:, idx]                             # its row and column read row -1 of s
    s[-1, :] = 0                                   # and are written over at once
    s[:, -1] = 0

The -1 reads the last row on purpose: the read only gives the result one more row (the appended
entry is the index's last, so its row is the result's last), and the code writes that row before
anything reads it. The fact asked of the code: the index name's every binding in the function
appends a -1 as its last entry, the read is assigned to a name (through subscripts that keep its
axis), and the statements that follow write the name's last position on that axis (`s[-1]`,
`s[:, -1]`) before any other use of the name.
"""
from __future__ import annotations

import ast
from typing import Callable, List, Optional, Tuple

from . import tree_walk
from .tree_walk import int_literal

_CAT = ("cat", "concat", "concatenate", "hstack")
_SMALL_TENSOR = ("tensor", "as_tensor", "new_tensor", "LongTensor", "IntTensor")


def written_back(function: Optional[ast.AST], read: ast.Subscript, key_node: ast.AST, axis: int, sentinel: int) -> bool:
    """`read` (`x[idx]` along `axis`) reads idx's appended -1 into a slot the code writes right after."""
    if function is None or sentinel != -1 or not isinstance(key_node, ast.Name):
        return False
    if not _always_appended(function, key_node.id, sentinel):
        return False
    found = _assigned(function, read, axis)
    if found is None:
        return False
    body, at, name = found
    return _written_next(body, at + 1, name, axis)


def grown_for(function: Optional[ast.AST], read: ast.Subscript, axis: int, rank: Callable, sentinel: int) -> bool:
    """`table[idx]` where every binding of `table` in the function appends one entry along `axis`: -1 reads it;
    so does the grown table read where it is made (`torch.cat([rows, rows.new_full((1,), -1)])[idx]`).
    rank(node): the rank of a tensor expression, when known (to place F.pad's pair)."""
    if function is None or sentinel != -1:
        return False
    if isinstance(read.value, ast.Call):
        return _grows(read.value, axis, rank)
    if not isinstance(read.value, ast.Name):
        return False
    values = _bindings(function, read.value.id)
    return bool(values) and all(_grows(v, axis, rank) for v in values)


def _bindings(function: ast.AST, name: str) -> List[ast.AST]:
    """The values of `name = ...` in the function; empty when any binding of the name is of another form."""
    stores = [node for node in tree_walk.all_nodes(function)
              if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store)]
    values = [node.value for node in tree_walk.all_nodes(function)
              if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
              and node.targets[0].id == name]
    return values if len(values) == len(stores) else []


def _grows(value: ast.AST, axis: int, rank: Callable) -> bool:
    """`torch.cat([x, <one entry along axis>], dim=axis)` or `F.pad(x, (..., 0, 1, ...))` padding one entry
    at the end of `axis` (pad's pairs run from the last dim, so the tensor's rank places the pair)."""
    if not isinstance(value, ast.Call) or not value.args:
        return False
    name = tree_walk.called_name(value)
    keywords = {k.arg: k.value for k in value.keywords}
    if name in ("cat", "concat", "concatenate") and isinstance(value.args[0], (ast.Tuple, ast.List)) \
            and len(value.args[0].elts) >= 2:
        dim = keywords.get("dim", value.args[1] if len(value.args) > 1 else None)
        at = 0 if dim is None else int_literal(dim)
        ranked = rank(value.args[0].elts[0]) if at is not None and at < 0 else None
        if at is None or at < 0 and (ranked is None or at + ranked != axis) or at >= 0 and at != axis:
            return False
        return _one_entry(value.args[0].elts[-1], axis)
    ranked = rank(value.args[0]) if name == "pad" else None
    if name == "pad" and len(value.args) >= 2 and isinstance(value.args[1], (ast.Tuple, ast.List)) and ranked:
        widths = [int_literal(e) for e in value.args[1].elts]
        pair = ranked - 1 - axis
        if pair < 0 or None in widths or len(widths) % 2 or len(widths) < 2 * (pair + 1):
            return False
        return widths[2 * pair:2 * pair + 2] == [0, 1]
    return False


def _one_entry(node: ast.AST, axis: int) -> bool:
    """A tensor of one entry along `axis`: `x.new_zeros(1, D)`, `torch.zeros((1, D))`, `row.unsqueeze(0)`."""
    if not isinstance(node, ast.Call):
        return False
    name = tree_walk.called_name(node)
    if name == "unsqueeze" and isinstance(node.func, ast.Attribute) and len(node.args) == 1:
        return int_literal(node.args[0]) == axis
    if name in ("zeros", "ones", "empty", "full", "new_zeros", "new_ones", "new_empty", "new_full", "randn", "rand"):
        sizes = node.args[0].elts if node.args and isinstance(node.args[0], (ast.Tuple, ast.List)) else \
            (node.args if name not in ("full", "new_full") else [])
        return len(sizes) > axis and int_literal(sizes[axis]) == 1
    return False


def _always_appended(function: ast.AST, name: str, sentinel: int) -> bool:
    values = _bindings(function, name)
    return bool(values) and all(_appends(v, sentinel) for v in values)


def _appends(value: ast.AST, sentinel: int) -> bool:
    """`torch.cat((a, torch.tensor([-1])))` (along dim 0) or `F.pad(a, (0, 1), value=-1)`."""
    if not isinstance(value, ast.Call):
        return False
    name = tree_walk.called_name(value)
    keywords = {k.arg: k.value for k in value.keywords}
    if name in _CAT and value.args and isinstance(value.args[0], (ast.Tuple, ast.List)) and value.args[0].elts:
        dim = keywords.get("dim", value.args[1] if len(value.args) > 1 else None)
        if dim is not None and int_literal(dim) not in (0, -1):
            return False
        return _only(value.args[0].elts[-1], sentinel)
    if name == "pad" and len(value.args) >= 2 and isinstance(value.args[1], (ast.Tuple, ast.List)):
        fill = keywords.get("value", value.args[3] if len(value.args) > 3 else None)
        widths = [int_literal(e) for e in value.args[1].elts]
        return fill is not None and int_literal(fill) == sentinel and widths == [0, 1]
    return False


def _only(node: ast.AST, sentinel: int) -> bool:
    """A one-entry tensor of the sentinel: `torch.tensor([-1])`, `x.new_full((1,), -1)`."""
    if not isinstance(node, ast.Call) or not node.args:
        return False
    name = tree_walk.called_name(node)
    if name in _SMALL_TENSOR:
        items = node.args[0]
        return isinstance(items, (ast.List, ast.Tuple)) and len(items.elts) == 1 and int_literal(items.elts[0]) == sentinel
    if name in ("full", "new_full") and len(node.args) >= 2:
        size = node.args[0]
        one = int_literal(size) == 1 or (isinstance(size, (ast.Tuple, ast.List)) and [int_literal(e) for e in size.elts] == [1])
        return one and int_literal(node.args[1]) == sentinel
    return False


def _assigned(function: ast.AST, read: ast.Subscript, axis: int) -> Optional[Tuple[List[ast.stmt], int, str]]:
    """(body, position, name) of `name = read[...]...` whose subscripts after the read keep `axis`."""
    for node in tree_walk.all_nodes(function):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if not isinstance(body, list):
                continue
            for at, stmt in enumerate(body):
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                        and _reaches(stmt.value, read, axis):
                    return body, at, stmt.targets[0].id
    return None


def _reaches(value: ast.AST, read: ast.Subscript, axis: int) -> bool:
    while value is not read:
        if not isinstance(value, ast.Subscript) or not _keeps(value.slice, axis):
            return False
        value = value.value
    return True


def _keeps(key: ast.AST, axis: int) -> bool:
    """A key that leaves dim `axis` where it was, whole: plain slices up to it, a full slice at it."""
    items = key.elts if isinstance(key, ast.Tuple) else [key]
    if len(items) <= axis:
        return True
    return all(isinstance(k, ast.Slice) for k in items[:axis]) and tree_walk.full_slice(items[axis])


def _last_on(key: ast.AST, axis: int) -> bool:
    """`[-1]`, `[-1, :]` for axis 0; `[:, -1]` for axis 1: the last position along `axis`. `[:-1, -1]` too,
    as `[-1, :-1]` is for axis 0: the slot's column but the corner, where it meets the slot's row."""
    items = key.elts if isinstance(key, ast.Tuple) else [key]
    return len(items) > axis and int_literal(items[axis]) == -1 \
        and all(tree_walk.full_slice(k) or _all_but_last(k) for k in items[:axis])


def _all_but_last(node: ast.AST) -> bool:
    return isinstance(node, ast.Slice) and node.lower is None and node.step is None and int_literal(node.upper) == -1


def _written_next(body: List[ast.stmt], start: int, name: str, axis: int) -> bool:
    """The statements after the read write `name`'s last position on `axis` before anything else
    uses the name (other writes of its parts, and `name = name[...]` that keeps the axis, may come first)."""
    for stmt in body[start:]:
        if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
            return False
        if _kept_rebinding(stmt, name, axis):
            continue
        target = stmt.targets[0]
        if _loads(stmt.value, name) or not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
                                            and target.value.id == name):
            return False
        if _last_on(target.slice, axis):
            return True
    return False


def _kept_rebinding(stmt: ast.Assign, name: str, axis: int) -> bool:
    """`s = s[:, idx]`: the same tensor, its slot on `axis` still last."""
    target, value = stmt.targets[0], stmt.value
    if not (isinstance(target, ast.Name) and target.id == name and isinstance(value, ast.Subscript)):
        return False
    while isinstance(value, ast.Subscript):
        if not _keeps(value.slice, axis):
            return False
        value = value.value
    return isinstance(value, ast.Name) and value.id == name


def _loads(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))
