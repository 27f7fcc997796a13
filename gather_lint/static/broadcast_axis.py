"""GL019: gather/scatter along the dim that `x.unsqueeze(k).expand/repeat(...)` broadcast.

Found by syntax, like normalised_axis: the argument is the broadcast itself, or a name the function
assigns once from it. The axis needs a literal `k`, and a broadcast that really spreads it (not
`expand(..., -1, ...)` or `repeat(..., 1, ...)` there).
"""
from __future__ import annotations

import ast
from typing import Optional

from ..dims import normalize_dim
from ..ops import GATHER, SCATTER
from ..rules import gl004_index_from_wrong_dim as wrong_dim
from ..rules import gl019_along_broadcast_dim as rule
from .normalised_axis import assigned_value, literal_int

_SPREAD = {"expand", "repeat", "expand_as"}


def check(interp, call: ast.Call, site, bound) -> None:
    if site.op.family not in (GATHER, SCATTER) or site.dim is None or not _spells_spread(interp):
        return
    if wrong_dim.check(site) is not None:
        return  # GL004 already says the gather dim is wrong, and which one the values fit
    roles = [("index", bound[site.op.index_param], site.index.shape)]
    if site.op.family == GATHER:
        roles.append(("input", bound["input"], site.input.shape))
    for role, node, shape in roles:
        if shape is None or shape.variadic:
            continue
        rank = len(shape.dims)
        made = assigned_value(node, interp.function, call.lineno)
        axis = _broadcast_axis(made, rank, interp) if made is not None else None
        if axis is not None and axis == normalize_dim(site.dim, rank):
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
        found = "unsqueeze(" in text and ("expand" in text or "repeat(" in text)
        function._gather_lint_spreads = found
    return found


def _broadcast_axis(node, rank: int, interp) -> Optional[int]:
    """The axis `x.unsqueeze(k).expand(...)` / `.repeat(...)` / `.expand_as(y)` spreads, in a rank-`rank` result."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _SPREAD):
        return None
    inner = node.func.value
    if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr == "unsqueeze"
            and len(inner.args) == 1 and not inner.keywords):
        return None
    k = literal_int(inner.args[0])
    if k is None:
        return None
    if k < 0:
        axis = rank + k  # counted from the end: leading dims a repeat adds do not move it
    else:
        before = interp._peek(inner.func.value)
        shape = getattr(before, "shape", None)
        if shape is None or shape.variadic or len(shape.dims) + 1 != rank:
            return None
        axis = k
    if not 0 <= axis < rank:
        return None
    if node.func.attr == "expand_as":
        return axis
    sizes = node.args[0].elts if len(node.args) == 1 and isinstance(node.args[0], (ast.Tuple, ast.List)) else node.args
    if node.keywords or any(isinstance(a, ast.Starred) for a in sizes) or len(sizes) != rank:
        return None
    spread = literal_int(sizes[axis])
    keeps = (1, -1) if node.func.attr == "expand" else (1,)
    return None if spread in keeps else axis
