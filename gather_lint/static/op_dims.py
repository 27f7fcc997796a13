"""GL002 at any op that takes a dim: a dim outside the input's rank raises 'Dimension out of range'.

`preds.squeeze()` of a one-sample batch [1, C] is [C], and `topk(k, dim=1)` on it raises; `F.normalize(e)`
(dim=1 by default) of a 1-d embedding raises alike. Each op here names where its dim is passed and its default;
the input's rank must be known (not guessed from a comment's spelling alone) and the dim a known int. The
family ops have their own check (rules/gl002), the softmaxes theirs (size_as_dim). `x.size(d)` is left out: it
is read everywhere, of tensors whose rank a docstring's list of names may have given (`batch: [text, spec, wav]`).
"""
from __future__ import annotations

import ast

from ..dims import normalize_dim
from ..ops import OP_NAMES
from ..rules import gl002_dim_out_of_range as rule
from .tensor_ops import certain_shape
from .values import DimVal, Literal

# op -> (position of dim among the arguments after the input, default dim or None when it must be given,
# dims the result adds: unsqueeze(dim) takes one past the last)
_DIMS = {
    "topk": (1, -1, 0), "sort": (0, -1, 0), "argsort": (0, -1, 0), "cumsum": (0, None, 0), "cumprod": (0, None, 0),
    "unsqueeze": (0, None, 1), "narrow": (0, None, 0), "select": (0, None, 0), "chunk": (1, 0, 0),
    "split": (1, 0, 0), "unbind": (0, 0, 0), "normalize": (1, 1, 0), "kthvalue": (1, -1, 0),
    "index_select": (0, None, 0),
}
# reductions over one dim: only a dim given as an int counts (`x.max()` and `x.max(other)` take none)
_REDUCTIONS = ("sum", "mean", "amax", "amin", "argmax", "argmin", "max", "min", "prod", "logsumexp", "std", "var",
               "all", "any", "nansum", "median", "mode", "count_nonzero")


def check(interp, node: ast.Call, name: str, owner, args: list, kwargs: dict) -> None:
    """`owner.<name>(*args, **kwargs)` (or torch.<name>(owner, ...)): flag a dim out of owner's range."""
    if name in _DIMS:
        at, default, added = _DIMS[name]
    elif name in _REDUCTIONS:
        at, default, added = 0, None, 0
    else:
        return
    if certain_shape(owner) is None:
        return
    if _family_result(node):
        return  # `x.gather(1, idx).prod(1)`: the family call's own checks say what is wrong with its result
    given = kwargs.get("dim", args[at] if len(args) > at else None)
    if given is None and "dim" not in kwargs and len(args) <= at:
        if default is None or name in _REDUCTIONS:
            return
        dim = default
    elif isinstance(given, DimVal) and isinstance(given.dim, int) and not isinstance(given.dim, bool):
        dim = given.dim
    elif isinstance(given, Literal) and type(given.value) is int:
        dim = given.value
    else:
        return
    rank = len(owner.shape.dims) + added
    if normalize_dim(dim, rank) is not None or rank == 0 and dim in (0, -1):
        return
    interp.flag(node, rule.check_op_dim(interp.source.segment(node), name, len(owner.shape.dims), owner.shape, dim,
                                        added, given is None), None)


def _family_result(node: ast.Call) -> bool:
    """The op runs on what a family call returns (`probs.gather(1, ids).prod(1)`)."""
    receiver = node.func.value if isinstance(node.func, ast.Attribute) else node.args[0] if node.args else None
    func = receiver.func if isinstance(receiver, ast.Call) else None
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return name is not None and name.rstrip("_") in OP_NAMES

