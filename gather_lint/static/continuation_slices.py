"""GL007: the scores of tokens appended at the end of a sequence read at its first positions.

`sequence = torch.cat((prompt, actions), dim=-1)` runs through a model, and `probs[:, :n]` with
`n = actions.shape[-1]` scores `actions` (in the same statement) with the first n positions: the
prompt's. The actions fill the last n positions, so every action is scored where a prompt token was
predicted, silently. Reported only when the sliced tensor covers the whole concatenation (its dim has
the concatenation's length, so the model did not already keep the last positions), the slice is
shorter than that (a non-empty front part), the slice's length is read off the appended tensor, and
the sliced tensor is made from the concatenation within the function.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..contract import Violation
from ..dims import must_differ, must_equal, normalize_dim
from ..rules import gl007_shift_misalignment as rule
from .normalised_axis import _bindings
from .tree_walk import called_name
from .values import DimVal, TensorVal

_MAX_STEPS = 8  # assignments followed back from the sliced tensor to the concatenation
_LENGTHS = ("shape", "size")


def check(interp, node: ast.Subscript, owner: TensorVal) -> None:
    front = _front_slice(node)
    if front is None or interp.function is None or owner.shape is None or owner.shape.variadic:
        return
    axis, upper = front
    appended = _length_of(_latest(upper, interp.function, node.lineno))
    if appended is None or appended not in _appended_names(interp.function) \
            or not _names_in_statement(interp.function, node, appended, upper):
        return
    made = _concatenation(node.value, interp.function, node.lineno, appended)
    if made is None:
        return
    whole_name, cat = made
    whole = interp.env.get(whole_name)
    n = interp.expr(upper)
    dims = owner.shape.dims
    if not isinstance(whole, TensorVal) or whole.shape is None or whole.shape.variadic or axis >= len(dims) \
            or not isinstance(n, DimVal):
        return
    cat_axis = _cat_axis(cat, len(whole.shape.dims))
    if cat_axis is None:
        return
    length = whole.shape.dims[cat_axis]
    if not must_equal(dims[axis], length) or not must_differ(n.dim, length):
        return
    segment = interp.source.segment
    interp.flag(node, Violation(
        rule.CODE, rule.SEVERITY,
        f"`{segment(node)}` takes the first `{segment(upper)}` positions of `{segment(node.value)}`, whose "
        f"{length} positions are those of `{whole_name}` = `{segment(cat)}` (line {cat.lineno}): `{appended}` "
        f"fills its last {segment(upper)} positions, so each of its tokens is scored at an earlier position "
        f"(the front part's) and the result is silently wrong; take the last positions "
        f"(`[..., -{segment(upper)}:]`, one further left when position t predicts token t + 1)",
        help=f"slice the last `{segment(upper)}` positions, not the first",
    ), None)


def _front_slice(node: ast.Subscript):
    """(axis, upper) of `x[:, :n]` / `x[:n]`: leading full slices, then a slice from the start."""
    if not isinstance(node.ctx, ast.Load):
        return None
    elements = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    for axis, element in enumerate(elements):
        if not isinstance(element, ast.Slice) or element.step is not None or element.lower is not None:
            return None
        if element.upper is not None:
            others = elements[axis + 1:]
            if any(not (isinstance(o, ast.Slice) and o.lower is None and o.upper is None) for o in others):
                return None
            return axis, element.upper
    return None


def _latest(node, function, line: int):
    """A name's value at its last plain assignment before `line`; other expressions themselves."""
    if not isinstance(node, ast.Name):
        return node
    stores = [s for s in _bindings(function).get(node.id, ()) if getattr(s, "lineno", line) < line]
    if not stores or not isinstance(stores[-1], ast.Assign) or len(stores[-1].targets) != 1 \
            or not isinstance(stores[-1].targets[0], ast.Name):
        return None
    return stores[-1].value


def _length_of(node) -> Optional[str]:
    """`t.shape[k]`, `t.size(k)`, `len(t)`: the name t whose length it reads."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape" \
            and isinstance(node.value.value, ast.Name):
        return node.value.value.id
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "size" \
            and isinstance(node.func.value, ast.Name) and node.args:
        return node.func.value.id
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1 \
            and isinstance(node.args[0], ast.Name):
        return node.args[0].id
    return None


def _names_in_statement(function, node: ast.Subscript, name: str, upper) -> bool:
    """The appended tensor is read in the statement of the slice (outside the slice's bound): it is
    what the sliced positions score."""
    inside = {id(n) for n in ast.walk(upper)}
    for statement in ast.walk(function):
        if isinstance(statement, ast.stmt) and not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                          ast.ClassDef, ast.If, ast.For, ast.While,
                                                                          ast.With, ast.Try)) \
                and statement.lineno <= node.lineno <= (statement.end_lineno or statement.lineno):
            return any(isinstance(n, ast.Name) and n.id == name and id(n) not in inside for n in ast.walk(statement))
    return False


def _concatenation(start, function, line: int, appended: str):
    """(name, cat call) of the `torch.cat((..., appended), dim)` the sliced tensor is made from,
    following the names of each assignment back."""
    frontier, seen = [(start, line)], set()
    for _ in range(_MAX_STEPS):
        if not frontier:
            return None
        node, at = frontier.pop(0)
        for name in (n for n in ast.walk(node) if isinstance(n, ast.Name)):
            value = _latest(name, function, at)
            if value is None or id(value) in seen:
                continue
            seen.add(id(value))
            if called_name(value) == "cat" and _last_part(value) == appended:
                return name.id, value
            stores = [s for s in _bindings(function).get(name.id, ()) if getattr(s, "lineno", at) < at]
            frontier.append((value, stores[-1].lineno))
    return None


def _appended_names(function) -> frozenset:
    """The names concatenated last by a `cat` in the function: one walk per function, kept on its node
    (`x[:, :seq_len]` with `seq_len = ids.shape[1]` is common, a concatenation ending in `ids` is not)."""
    found = getattr(function, "_gather_lint_appended", None)
    if found is None:
        found = frozenset(name for n in ast.walk(function) if isinstance(n, ast.Call) and called_name(n) == "cat"
                          for name in (_last_part(n),) if name is not None)
        function._gather_lint_appended = found
    return found


def _last_part(cat: ast.Call) -> Optional[str]:
    parts = cat.args[0] if cat.args else None
    if isinstance(parts, (ast.Tuple, ast.List)) and len(parts.elts) >= 2 and isinstance(parts.elts[-1], ast.Name):
        return parts.elts[-1].id
    return None


def _cat_axis(cat: ast.Call, rank: int) -> Optional[int]:
    given = next((k.value for k in cat.keywords if k.arg == "dim"), cat.args[1] if len(cat.args) > 1 else None)
    if given is None:
        return normalize_dim(0, rank)
    if isinstance(given, ast.Constant) and isinstance(given.value, int):
        return normalize_dim(given.value, rank)
    if isinstance(given, ast.UnaryOp) and isinstance(given.op, ast.USub) and isinstance(given.operand, ast.Constant):
        return normalize_dim(-given.operand.value, rank)
    return None
