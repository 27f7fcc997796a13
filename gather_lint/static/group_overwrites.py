"""GL013 for a loop over groups that writes each group's rows into one buffer: `out[mask] = v` or
`out.masked_scatter_(mask, v)` inside `for i in ...`, with the mask built as a membership over several
slots (`(assigned == i).any(dim=-1)`: top-k experts, several labels per row).

A row that belongs to two groups is written by both iterations and keeps only the last one's value,
where the two were meant to add up (a top-2 mixture of experts sums its experts' weighted outputs).
All of this must hold, read from the function's code:

* the write is inside a `for` loop whose target binds the group number `i`;
* the buffer is not rebound inside the loop (it carries rows from one iteration to the next);
* the mask is, or was assigned in the loop from, `(X == i).any(...)` (through `.view`, `.unsqueeze`,
  `.reshape`, `.expand_as`): the `.any()` over slots says a row can hold the group in more than one
  slot, so rows appear in several groups.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..rules import gl013_overwriting_accumulate as overwrite
from .normalised_axis import assigned_value
from .tree_walk import called_name

_RESHAPES = {"view", "unsqueeze", "reshape", "expand_as", "expand", "flatten", "bool", "squeeze"}


def check_masked_scatter(interp, node: ast.Call) -> None:
    """`buf.masked_scatter_(mask, v)` (see the module docstring)."""
    if called_name(node) != "masked_scatter_" or len(node.args) != 2 or not isinstance(node.func, ast.Attribute):
        return
    _check(interp, node, node.func.value, node.args[0], node.args[1], "masked_scatter_")


def check_mask_write(interp, node: ast.Assign, target: ast.Subscript) -> None:
    """`buf[mask] = v` (see the module docstring)."""
    if isinstance(node.value, ast.Constant) or not isinstance(target.slice, (ast.Name, ast.Call)):
        return  # one constant for every row: writing it twice changes nothing; not a mask of its own
    _check(interp, node, target.value, target.slice, node.value, "subscript")


def _check(interp, node, buffer_node, mask_node, value_node, how: str) -> None:
    function = interp.function
    if function is None or not isinstance(buffer_node, ast.Name) or not _tests_membership(interp.source, function):
        return
    membership = _membership(mask_node, function, node.lineno)
    if membership is None:
        return  # most writes: no `(X == i).any()` mask, no walk for the loop
    loop = _enclosing_for(function, node)
    if loop is None or not any(isinstance(s, ast.Name) and s.id in _loop_names(loop) for s in membership[1]):
        return
    group = ast.unparse(membership[0])
    if _rebinds(loop, buffer_node.id):
        return
    segment = interp.source.segment
    buffer, mask, value = buffer_node.id, segment(mask_node), segment(value_node)
    fix = f"`{buffer}[{mask}] += {value}`" if how == "subscript" else \
        f"`{buffer}[<the group's rows>] += {value}` (the mask without its trailing singleton)"
    write = f"{buffer}[{mask}] = ..." if how == "subscript" else f"{buffer}.masked_scatter_(...)"
    interp.flag(node, overwrite.check_group_overwrite(write, mask, group, fix), None)


def _tests_membership(source, function) -> bool:
    """The function's text holds `.any(` (a membership mask can be made there); once per function."""
    found = getattr(function, "_gather_lint_any", None)
    if found is None:
        found = any(".any(" in line for line in source.lines[function.lineno - 1:function.end_lineno or function.lineno])
        function._gather_lint_any = found
    return found


def _enclosing_for(function, node) -> Optional[ast.For]:
    """The innermost `for` of the function that holds node (by position)."""
    found = None
    for loop in ast.walk(function):
        if isinstance(loop, ast.For) and loop.lineno < node.lineno <= (loop.end_lineno or loop.lineno):
            if found is None or loop.lineno > found.lineno:
                found = loop
    return found


def _loop_names(loop: ast.For) -> set:
    return {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}


def _membership(mask_node, function, line: int):
    """(the `.any()` call, the compared sides) when the mask is, or was assigned from, `(X == i).any(...)`."""
    node = mask_node
    for _ in range(4):  # a name assigned from a name ...
        if isinstance(node, ast.Name):
            node = assigned_value(node, function, line)
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _RESHAPES:
            node = node.func.value
            continue
        break
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "any"):
        return None
    compared = node.func.value
    if not isinstance(compared, ast.Compare) or len(compared.ops) != 1 or not isinstance(compared.ops[0], ast.Eq):
        return None
    return node, (compared.left, compared.comparators[0])


def _rebinds(loop: ast.For, name: str) -> bool:
    """The loop body assigns the buffer a new value (then nothing carries over)."""
    for n in ast.walk(loop):
        if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return True
    return False
