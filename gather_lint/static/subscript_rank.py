"""GL001 at a subscript: more indices than the tensor has dims (`actions[ids, :]` on an [N] tensor).

Each index item takes one dim: an int, a slice, an index tensor (a bool mask takes its own rank, so at
least one; a 0-d bool takes none, it adds a dim like None). torch raises `IndexError: too many indices for tensor of dimension r`. A loop or helper
written for [N, A] data and handed [N] data (a Categorical policy's actions) fails this way.

Counted only when every item is known to take a dim: a `None` (a new dim), an Ellipsis, or an item
whose value is not known (it could be either) leaves the subscript alone. A rank read from a docstring is
not enough: docstrings often describe one of several call paths (or an older signature), so the rank
must come from code, an annotation or a shape comment; nor is the rank of a broadcast with an operand of
unknown shape (`gain_function(x) * discounts` with discounts [S]: the unknown may be [B, S], and is in
allrank's DCG), which keeps the known operand's dims only as a guess (Shape.guessed). Under a caller's facts, a subscript in a branch
that tests a parameter (`if video: x[:, :, :, 0, 0]`) is left alone: the caller picks the path, and the
branch may be the one another caller takes with data of the other rank. Likewise a rank from a shape comment
written before an `if` with two arms, at a subscript in one of them: the comment may describe the configuration
the other arm serves (`# [B, T, K, K]`, then `else:` for the duration-dependent `[B, T, K, D, K]`). And a rank
from a shape comment that two statements of the function both index past: the code agrees with itself, and the
comment is the stale one; or a comment whose rank the code gives the name's first item (`outputs[0][:, -1, :]` of
`outputs = model(...)  # (B, T, V)`): it describes the item of an output tuple.
"""
from __future__ import annotations

import ast

from ..rules import gl001_rank_mismatch as rule
from . import tree_walk
from .tensor_ops import SliceVal
from .values import DimVal, SeqVal, TensorVal


def check(interp, node: ast.Subscript, owner: TensorVal, key) -> bool:
    """Reports GL001 and says whether it did: torch then raises on the rank before any value is read, so what
    the values would read (GL004, GL011) is no finding of its own."""
    shape = owner.shape
    if (interp.call_depth and interp.parameter_branches) or shape is None or shape.variadic or shape.guessed \
            or not isinstance(node.slice, ast.Tuple) or told_in_prose(owner) or _commented_before_branch(interp, owner):
        return False
    items = node.slice.elts
    values = key.items if isinstance(key, SeqVal) and len(key.items) == len(items) else None
    if values is None or not all(_takes_a_dim(item, value) for item, value in zip(items, values)):
        return False
    rank = len(shape.dims)
    if len(items) > rank and not _comment_outvoted(interp, owner, node, rank) and not _comment_of_first_item(interp, node, len(items)):
        interp.flag(node, rule.check_too_many_indices(
            interp.source.segment(node.value), shape, interp.source.segment(node), len(items)), None)
        return True
    return False


def _comment_of_first_item(interp, node: ast.Subscript, count: int) -> bool:
    """`outputs = model(**inputs)  # (B, T, V)` then `outputs[0][:, -1, :]`: the comment's rank is the count of
    indices the code gives the name's first item, so it describes that item (a model's output tuple), not the name."""
    inner = node.value
    if not (isinstance(inner, ast.Subscript) and isinstance(inner.value, ast.Name) and isinstance(inner.slice, ast.Constant)
            and type(inner.slice.value) is int):
        return False
    held = interp.env.get(inner.value.id)
    return isinstance(held, TensorVal) and "comment" in (held.origin or "") and held.shape is not None \
        and not held.shape.variadic and len(held.shape.dims) == count


def _takes_a_dim(item: ast.expr, value) -> bool:
    if isinstance(item, ast.Slice):
        return True
    if isinstance(item, ast.Constant):
        return isinstance(item.value, int) and not isinstance(item.value, bool)
    if isinstance(item, ast.Starred):
        return False
    if isinstance(value, TensorVal) and value.dtype == "bool":
        # a 0-d bool (`x.sum(0) > 0` of an [N] x) takes no dim: like None it adds one, of size 1 or 0
        return value.shape is not None and (value.shape.variadic or len(value.shape.dims) > 0)
    return isinstance(value, TensorVal) or isinstance(value, DimVal) or isinstance(value, SliceVal)


def _commented_before_branch(interp, owner: TensorVal) -> bool:
    """The rank is a shape comment's, written before the innermost two-armed `if` whose arm this is."""
    origin = owner.origin or ""
    if not origin.startswith(_COMMENT) or not interp.two_armed_ifs:
        return False
    line = origin[len(_COMMENT):].split()[0] if origin[len(_COMMENT):] else ""
    return line.isdigit() and int(line) < interp.two_armed_ifs[-1]


_COMMENT = "comment line "


def _comment_outvoted(interp, owner: TensorVal, node: ast.Subscript, rank: int) -> bool:
    """The rank is a shape comment's, and another statement of the function indexes the same name with more
    items than that rank too: the code agrees with itself against the comment, which is the stale one
    (`node_out = readout(h).squeeze(-1)  # [n_nodes, ]` above `node_out[:, 0]` and `node_out[:, 1:]`)."""
    if not (owner.origin or "").startswith(_COMMENT) or not isinstance(node.value, ast.Name):
        return False
    scope = interp.function if interp.function is not None else getattr(interp.module, "tree", None)
    if scope is None:
        return False
    name = node.value.id
    return any(isinstance(n, ast.Subscript) and n is not node and getattr(n, "lineno", 0) != node.lineno
               and isinstance(n.value, ast.Name) and n.value.id == name and isinstance(n.slice, ast.Tuple)
               and len(n.slice.elts) > rank and not any(isinstance(e, ast.Constant) and e.value is None
                                                        for e in n.slice.elts)
               for n in tree_walk.all_nodes(scope))


def told_in_prose(t: TensorVal) -> bool:
    return (t.origin or "").startswith("docstring")
