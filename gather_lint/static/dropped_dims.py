"""A reduction that drops a dim other than the first, met elementwise by a tensor of the shape it reduced (GL029).

Broadcasting lines shapes up from the right. `x.sum(dim=1)` of `x` [B, V] is [B]; in `x / x.sum(dim=1)`
the [B] sums line up with V, the last dim of x, not with B, the dim they were computed for: torch raises
when B != V and pairs column j with row j's sum when they are equal. Only a reduction over dim 0 (or one
that keeps its dim) lines up with the tensor it came from.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Optional, Tuple

from ..dims import Shape, must_equal, value
from ..rules import gl029_reduction_without_keepdim as rule
from .tensor_ops import reduced_axis, whole_slice
from .text_scan import file_test
from .values import DimVal, Literal, SeqVal, TensorVal

# reductions over one dim: `x.sum(1)`, `torch.mean(x, dim=-1)`, `x.max(1)[0]` (the values of the pair)
_REDUCTIONS = frozenset({"sum", "mean", "nansum", "nanmean", "prod", "amax", "amin", "logsumexp", "norm", "std", "var",
                         "max", "min"})
# ops whose result has the shape of their input and keeps each entry where it was
_IN_PLACE_OF_ENTRIES = frozenset({
    "clamp", "clamp_", "clamp_min", "clamp_min_", "clamp_max", "clamp_max_", "clip", "clip_", "add", "sub", "mul", "div",
    "pow", "sqrt", "rsqrt", "abs", "exp", "log", "reciprocal", "neg", "float", "double", "half", "bfloat16", "to", "type",
    "detach", "contiguous", "clone", "add_", "sub_", "mul_", "div_", "sqrt_", "exp_", "log_"})


@dataclass(frozen=True)
class Dropped:
    source: Shape  # the shape the reduction read
    axis: int  # the dim it dropped (not 0)
    node: ast.AST  # the reduction's call


def reduced(method: str, owner, args, kwargs, result, node: ast.Call):
    """`x.sum(1)` of a known x [B, V]: its result marked with the dim it dropped."""
    if method not in _REDUCTIONS or not isinstance(owner, TensorVal) or owner.shape is None or owner.shape.variadic \
            or len(owner.shape.dims) < 2:
        return result
    axis = reduced_axis(method, owner, args, kwargs)
    if not axis:  # None, or dim 0: the rest lines up with the tensor reduced
        return result
    mark = Dropped(owner.shape, axis, node)
    if isinstance(result, SeqVal) and result.items and isinstance(result.items[0], TensorVal):  # (values, indices)
        return SeqVal((_marked(result.items[0], mark),) + tuple(result.items[1:]), result.names)
    return _marked(result, mark)


def subscripted(owner, key, result, node: ast.Subscript):
    """`values[:, -1]` of a known [B, K]: one entry per row, its dim dropped as a reduction over dim 1 drops it
    (the k-th largest of a top-k, the last column of a running total)."""
    if not isinstance(owner, TensorVal) or owner.shape is None or owner.shape.variadic or len(owner.shape.dims) < 2 \
            or not isinstance(key, SeqVal) or key.names or len(key.items) > len(owner.shape.dims):
        return result
    picks = [i for i, item in enumerate(key.items) if isinstance(item, DimVal) and isinstance(item.dim, int)]
    if len(picks) != 1 or picks[0] == 0 or not all(whole_slice(item) for i, item in enumerate(key.items) if i != picks[0]):
        return result
    return _marked(result, Dropped(owner.shape, picks[0], node))


def _marked(t, mark: Dropped):
    dims = mark.source.dims
    if not isinstance(t, TensorVal) or t.shape is None or t.shape.dims != dims[:mark.axis] + dims[mark.axis + 1:]:
        return t
    return t.with_(dropped=mark)


def carried(method: str, owner, result):
    """`x.sum(1).clamp_min(eps)`: an op that keeps each entry in place keeps the mark."""
    if isinstance(owner, TensorVal) and owner.dropped is not None and method in _IN_PLACE_OF_ENTRIES \
            and isinstance(result, TensorVal) and result.dropped is None and result.shape == owner.shape:
        return result.with_(dropped=owner.dropped)
    return result


def through_arith(left, right, result):
    """`x.sum(1) + 1e-8`: arithmetic with a number keeps the mark; so does arithmetic with another reduction that
    dropped the same dim of a like tensor (`(x * m).sum(1) / m.sum(1)`, a masked mean)."""
    if not isinstance(result, TensorVal) or result.dropped is not None:
        return result
    for mine, other in ((left, right), (right, left)):
        if isinstance(mine, TensorVal) and mine.dropped is not None and result.shape == mine.shape \
                and (_number(other) or _dropped_alike(mine, other)):
            return result.with_(dropped=mine.dropped)
    return result


def _dropped_alike(mine: TensorVal, other) -> bool:
    return isinstance(other, TensorVal) and other.dropped is not None and other.shape == mine.shape \
        and other.dropped.axis == mine.dropped.axis and other.dropped.source == mine.dropped.source


def _number(v) -> bool:
    return isinstance(v, DimVal) or isinstance(v, Literal) and isinstance(v.value, (int, float)) \
        or isinstance(v, TensorVal) and v.shape is not None and not v.shape.variadic and not v.shape.dims


def check(interp, node, left_node, left, right_node, right, op: str) -> None:
    """GL029 where a marked reduction meets, elementwise, a tensor of the shape it reduced."""
    for mine, mine_node, other, other_node in ((left, left_node, right, right_node), (right, right_node, left, left_node)):
        if not isinstance(mine, TensorVal) or mine.dropped is None or not isinstance(other, TensorVal) \
                or other.shape is None or other.shape.variadic or other.dropped is not None:
            continue
        mark = mine.dropped
        # the shape it reduced, or one that differs only at the dropped dim (`logits < topk(logits, k)[0][:, -1]`:
        # k entries read, V met)
        if len(other.shape.dims) != len(mark.source.dims) or not all(
                must_equal(a, b) for i, (a, b) in enumerate(zip(other.shape.dims, mark.source.dims)) if i != mark.axis):
            continue
        pair = _misaligned(mark, other.shape)
        if pair is None:
            continue
        interp.flag(node, rule.check_meeting(
            interp.source.segment(mine_node), mine.shape, interp.source.segment(other_node), other.shape,
            interp.source.segment(mark.node), mark.axis, mark.source, pair, op, mark.node.lineno,
            picked=isinstance(mark.node, ast.Subscript)), None)
        return


def _misaligned(mark: Dropped, met_shape: Shape) -> Optional[Tuple[object, object]]:
    """The first pair (a dim of the reduced result, the dim of the tensor met that it lines up with) that are not
    the same size: none when each pair is the same dim, or a pair holds a size 1 (it broadcasts either way)."""
    dims = mark.source.dims
    for i in range(mark.axis):
        kept, met = dims[i], met_shape.dims[i + 1]
        if kept is None or met is None or value(kept) == 1 or value(met) == 1:
            return None
        if not must_equal(kept, met):
            return kept, met
    return None


# a helper returning a reduction over a named or non-zero dim: `return (x * m).sum(dim=dim) / m.sum(dim=dim)`
_RETURNS_REDUCED = re.compile(
    r"return\b[^\n]*\.(?:sum|mean|norm|std|var|logsumexp|amax|amin)\(\s*(?:dim\s*=\s*)?(?:-?[1-9]|[a-z_]\w*)\s*[,)]")


def spelled_in(part: str) -> bool:
    """A helper that returns a reduction along a dim other than 0, without keepdim (GL029): its result loses the
    dim, and a caller combining it with the tensor it reduced lines it up with the wrong dim. The helper and its
    callers are analysed; reductions used where they are made are checked in the functions analysed anyway."""
    return "keepdim" not in part and reduces_along(part)


@file_test
def reduces_along(text: str) -> bool:
    """The file-wide test of spelled_in: some helper returns a reduction along a dim other than 0."""
    return _RETURNS_REDUCED.search(text) is not None
