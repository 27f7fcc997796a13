"""GL019: gather/scatter along the dim that `x.unsqueeze(k).expand/repeat(...)` broadcast.

Found by syntax, like normalised_axis: the argument is the broadcast itself, or a name the function
assigns once from it. The size-1 axis is a literal `unsqueeze(k)`, or any size-1 dim of the expanded
tensor's known shape (`x[:, None]`, `x.view(-1, 1)`, `x.reshape(B, 1, D)`); the broadcast must really
spread it (not `expand(..., -1, ...)` or `repeat(..., 1, ...)` there).
"""
from __future__ import annotations

import ast

from ..dims import normalize_dim, value
from ..ops import GATHER, SCATTER
from ..rules import gl004_index_from_wrong_dim as wrong_dim
from ..rules import gl019_along_broadcast_dim as rule
from . import tensor_ops as ops
from .normalised_axis import assigned_value, literal_int
from .values import TensorVal

_SPREAD = {"expand", "repeat", "expand_as"}
_SIZE_ONE = ("unsqueeze(", "None]", "None,", "view(", "reshape(")  # spellings that can make a size-1 dim


def check(interp, call: ast.Call, site, bound, values=None) -> None:
    values = values or {}
    spread = getattr(values.get("input"), "spread", None)
    if site.op.family not in (GATHER, SCATTER) or site.dim is None or not (spread or _spells_spread(interp)):
        return
    if wrong_dim.check(site) is not None:
        return  # GL004 already says the gather dim is wrong, and which one the values fit
    roles = [("index", bound[site.op.index_param], site.index.shape, values.get(site.op.index_param))]
    if site.op.family == GATHER:
        roles.append(("input", bound["input"], site.input.shape, values.get("input")))
    for role, node, shape, held in roles:
        if shape is None or shape.variadic:
            continue
        rank = len(shape.dims)
        made = assigned_value(node, interp.function, call.lineno)
        axes = _broadcast_axes(made, rank, interp) if made is not None else ()
        if role == "input" and isinstance(held, TensorVal) and held.spread and held.shape is not None \
                and len(held.shape.dims) == rank:
            # an input copied along the gathered dim gives that one slice whatever the index holds: what the value
            # says, however the broadcast was spelled. (An index spread along it may pick one row and repeat it
            # on purpose, `x.gather(1, sel.unsqueeze(-1).expand(B, N, D))`: that side stays with the spelling.)
            axes = tuple(axes) + held.spread
            made = made if made is not None else node
        axis = normalize_dim(site.dim, rank)
        if axis in axes:
            segment = interp.source.segment
            interp.flag(call, rule.check_broadcast_axis(role, segment(node), segment(made, 80), axis, site.op.spelled,
                                                        segment(bound[site.op.index_param])), None)
            return


def _spells_spread(interp) -> bool:
    """Whether the function's text has an unsqueeze and an expand/repeat at all (kept on its node)."""
    function = interp.function
    if function is None:
        return True  # the module body (a script) is analysed once
    found = getattr(function, "_gather_lint_spreads", None)
    if found is None:
        text = "\n".join(interp.source.lines[function.lineno - 1:function.end_lineno or function.lineno])
        found = ("expand" in text or "repeat(" in text) and any(one in text for one in _SIZE_ONE)
        function._gather_lint_spreads = found
    return found


def _broadcast_axes(node, rank: int, interp) -> tuple:
    """The axes `x.unsqueeze(k).expand(...)` / `.repeat(...)` / `.expand_as(y)` spreads, in a rank-`rank` result."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _SPREAD):
        return ()
    inner = node.func.value
    ones = _size_one_axes(inner, rank, interp)
    if node.func.attr == "expand_as":
        return ones
    sizes = node.args[0].elts if len(node.args) == 1 and isinstance(node.args[0], (ast.Tuple, ast.List)) else node.args
    if node.keywords or any(isinstance(a, ast.Starred) for a in sizes) or len(sizes) != rank:
        return ()
    keeps = (1, -1) if node.func.attr == "expand" else (1,)
    return tuple(axis for axis in ones if literal_int(sizes[axis]) not in keeps)


def _size_one_axes(inner, rank: int, interp) -> tuple:
    """Size-1 axes of the tensor being spread, counted in the rank-`rank` result."""
    if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr == "unsqueeze" \
            and len(inner.args) == 1 and not inner.keywords:
        k = literal_int(inner.args[0])
        if k is not None and k < 0:
            return (rank + k,) if 0 <= rank + k < rank else ()  # from the end: leading dims a repeat adds do not move it
    shape = getattr(_reshaped(inner, interp), "shape", None)
    if shape is None or shape.variadic or len(shape.dims) != rank:
        return ()
    return tuple(axis for axis, size in enumerate(shape.dims) if value(size) == 1)


_RESHAPES = ("unsqueeze", "view", "reshape")


def _reshaped(inner, interp):
    """The value of `x.view(-1, 1)` / `x.unsqueeze(1)` / `x[:, None]`, evaluated without side effects on sites."""
    if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr in _RESHAPES:
        if inner.keywords or any(isinstance(a, ast.Starred) for a in inner.args):
            return None
        before = interp._peek(inner.func.value)
        if not isinstance(before, TensorVal):
            return None
        return ops.apply_method(inner.func.attr, before, [interp._peek(a) for a in inner.args], {}, "")
    return interp._peek(inner)
