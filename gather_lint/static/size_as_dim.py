"""GL002 at a softmax / log_softmax / gumbel_softmax whose dim is a size, or out of range.

`dim = logits.size(-1); F.softmax(logits, dim)` passes the class count where the class dim was meant
(`dim=self.n_experts`, `x.shape[-1]` alike): on a [B, C] input any C > 1 makes torch raise
'Dimension out of range', and a smaller one normalises over the wrong dim. Reported when the dim's
value is certainly out of range for the input's known rank, or is certainly the size of one of its dims
and is spelled as a size (read with .size()/.shape[], or a name that is not an axis's).

Softmaxes are in most model files; the prefilter keeps only a softmax whose last argument is a name
or a size read (`dim=axis` is common, so a bare name counts only when the text assigns it a size).
"""
from __future__ import annotations

import ast
import re
from typing import Optional

from ..dims import must_equal, normalize_dim, value
from ..rules import gl002_dim_out_of_range as rule
from .normalised_axis import assigned_value
from .text_scan import positions
from .values import DimVal
from .text_scan import file_test

FUNCTIONS = ("softmax", "log_softmax", "gumbel_softmax")
_GUMBEL_DIM_AT = 3  # F.gumbel_softmax(logits, tau, hard, eps, dim): dim after the input
_LAST_ARG = re.compile(r"[,(]\s*(?:dim\s*=\s*)?([A-Za-z_][\w.]*(?:\.size\(\s*-?\d\s*\)|\.shape\[\s*-?\d\s*\])?)\s*\)")
_SIZE_READ = re.compile(r"\.size\(\s*-?\d\s*\)|\.shape\[\s*-?\d\s*\]")
_AXIS_WORDS = ("dim", "axis")


@file_test
def spelled_in(text: str) -> bool:
    """A softmax whose dim is a size read, a count-like name, or a name the text assigns a size."""
    for at in positions(text, "oftmax("):
        end = text.find("\n", at)
        found = _LAST_ARG.search(text, at + 6, end if end != -1 else len(text))
        if found is not None and _size_like(text, found.group(1)):
            return True
    return False


def _size_like(text: str, arg: str) -> bool:
    if _SIZE_READ.search(arg) is not None or _count_name(arg.rsplit(".", 1)[-1]):
        return True
    for at in positions(text, f"{arg} = "):  # `dim = logits.size(-1)` on its own line
        end = text.find("\n", at)
        if _SIZE_READ.search(text, at, end if end != -1 else len(text)) is not None:
            return True
    return False


def dim_argument(node: ast.Call, function: str, on_method: bool):
    """The dim's syntax node in a call, or None."""
    for keyword in node.keywords:
        if keyword.arg == "dim":
            return keyword.value
    at = (0 if on_method else 1) + (_GUMBEL_DIM_AT if function == "gumbel_softmax" else 0)
    return node.args[at] if len(node.args) > at else None


def check(interp, node: ast.Call, function: str, owner, args, kwargs, on_method: bool) -> None:
    """`function(owner, *args, **kwargs)`: flag a dim out of owner's range, or a size of it spelled as a size."""
    at = _GUMBEL_DIM_AT if function == "gumbel_softmax" else 0
    given = kwargs.get("dim", args[at] if len(args) > at else None)
    shape = owner.shape
    if shape is None or shape.variadic or not shape.dims or not isinstance(given, DimVal):
        return
    dim_node = dim_argument(node, function, on_method)
    if dim_node is None:
        return
    rank = len(shape.dims)
    written = value(given.dim)
    size_axis = _size_axis(interp, node, dim_node, given.dim, shape.dims)
    if size_axis is None and (written is None or normalize_dim(written, rank) is not None or shape.guessed):
        return  # a rank guessed from a broadcast with an unknown operand (`layer(x) + bias`) proves no dim is out
    if size_axis is not None and written is not None and normalize_dim(written, rank) is not None:
        return  # a size that is also a valid dim (a [B, 1] input): only the data could tell
    segment = interp.source.segment
    source = node.func.value if on_method and isinstance(node.func, ast.Attribute) else \
        (node.args[0] if node.args else None)
    shown = written if written is not None else given.dim
    interp.flag(node, rule.check_normaliser_dim(segment(node), function, segment(source) if source is not None else "",
                                                shape, segment(dim_node), shown, size_axis), None)


def _size_axis(interp, node, dim_node, dim, dims) -> Optional[int]:
    """The axis whose size the dim is, when it is spelled as a size and certainly equals that size."""
    if not _spelled_as_size(interp, node, dim_node):
        return None
    matches = [i for i, d in enumerate(dims) if must_equal(d, dim)]
    return matches[-1] if matches else None


def _spelled_as_size(interp, node, dim_node) -> bool:
    """The dim reads a size (`x.size(-1)`, a name assigned one), or is named as a count (`self.n_experts`)."""
    made = assigned_value(dim_node, interp.function, node.lineno)
    if made is not None and _reads_size(made):
        return True
    name = dim_node.attr if isinstance(dim_node, ast.Attribute) else dim_node.id if isinstance(dim_node, ast.Name) \
        else None
    return name is not None and _count_name(name)


def _count_name(name: str) -> bool:
    lowered = name.lower()
    return not any(word in lowered for word in _AXIS_WORDS) and \
        (lowered.startswith(("n_", "num_")) or lowered.endswith(("_size", "_count", "classes", "experts")))


def _reads_size(node) -> bool:
    """x.size(k), x.shape[k], len(x)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "size" and node.args:
        return True
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"
