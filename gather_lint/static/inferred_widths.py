"""GL028's facts: `F.one_hot(labels)` without num_classes is `labels.max() + 1` wide, a width the batch decides.

The width is a named dim, `labels.max()+1` (its size known only when the labels are known one by one). Where
such a one-hot meets a tensor with a number of classes of its own in an elementwise op (`targets * logp`,
`onehot - probs`), the two agree only in a batch that holds the last class: GL028 is reported at the one_hot
call, which the width remembers (a method of the file may have made it).
"""
from __future__ import annotations

import ast
from typing import Optional

from ..dims import Shape, Sym, value
from ..rules import gl028_one_hot_width_from_batch as rule
from . import exact_values
from .values import TensorVal

_SUFFIX = ".max()+1"


def one_hot(interp, node: ast.Call, labels_node: ast.expr, labels: TensorVal) -> Optional[TensorVal]:
    """What `F.one_hot(labels)` gives without num_classes: labels' dims and a width named for the labels."""
    shape = labels.shape
    if shape is None or shape.variadic:
        return None
    text = interp.source.segment(labels_node)
    top = exact_values.largest(labels)
    width = Sym(f"{text}{_SUFFIX}", expr=f"int({text}.max()) + 1", size=top + 1 if top is not None else None,
                made_at=node)
    return TensorVal(Shape(shape.dims + (width,)), "int64", non_negative=True)


def _width(t) -> Optional[Sym]:
    shape = t.shape if isinstance(t, TensorVal) else None
    if shape is None or not shape.dims:
        return None
    last = shape.dims[-1]
    return last if isinstance(last, Sym) and last.name.endswith(_SUFFIX) and last.expr else None


def _classes(d) -> bool:
    """A number of classes of the tensor's own: a size of 2 or more, or a name that is no other one-hot width."""
    known = value(d)
    if known is not None:
        return known >= 2
    return isinstance(d, Sym) and not d.name.endswith(_SUFFIX)


def check(interp, node, left_node, left, right_node, right) -> None:
    """GL028 where a one-hot of an inferred width meets a tensor whose last dim counts classes of its own."""
    for mine, mine_node, other, other_node in ((left, left_node, right, right_node), (right, right_node, left, left_node)):
        width = _width(mine)
        if width is None or not isinstance(other, TensorVal) or other.shape is None or other.shape.variadic \
                or not other.shape.dims or not _classes(other.shape.dims[-1]):
            continue
        classes = other.shape.dims[-1]
        if width.size is not None and value(classes) is not None and width.size == value(classes):
            continue  # the labels known one by one hold the last class: the widths agree
        made = width.made_at  # reported at the one_hot call (a method of this file may have made it)
        labels = width.name[: -len(_SUFFIX)]
        interp.flag(made if made is not None else node, rule.check_meeting(
            labels, width.size, interp.source.segment(other_node), other.shape, node.lineno if made is not None else None),
            None)
        return
