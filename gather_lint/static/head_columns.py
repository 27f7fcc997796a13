"""Value heads: a layer whose output width is a literal 1 (`nn.Linear(d, 1)`, an nn.Sequential ending in one).

A critic's `values = self.v(obs)` is [B, 1], one value per row, like the column a gather keeps. Met by
the per-row returns or advantages [B], broadcasting gives [B, B]: every value against every return, and
a mean over it trains the critic (or weights the actor) on the wrong numbers, with at most torch's
size warning in a loss. The output is marked the way a gather's kept singleton is, so the GL006 checks of
arithmetic, losses and torch.where apply to it; the mark is reported where the two meet, since the head's
own output shape is the module's convention and the squeeze belongs at the use.
"""
from __future__ import annotations

import re
from typing import Optional

from ..dims import value
from .modules import KeepShape, Sequential
from .values import LayerVal, TensorVal


_WIDTH_ONE = re.compile(r"Linear\([^()]*,\s*1\s*[,)]")  # nn.Linear(d, 1), nn.Linear(d, 1, bias=False)


def scripted(text: str) -> bool:
    """A script that builds a width-1 linear head: its functions are read whole, since the head's use
    (`loss = ((model(x) - y) ** 2).mean()`) names no op of the family."""
    return "__main__" in text and _WIDTH_ONE.search(text) is not None


class HeadMark:
    """`kept_at` of a head's output: not a gather call, so nothing is reported or fixed at the head."""

    def __init__(self, node):
        self.node = node


def is_head(t) -> bool:
    return isinstance(t, TensorVal) and isinstance(t.kept_at, HeadMark)


def mark(layer, node, out):
    """The layer's output, marked at its last dim when the layer's width is a literal 1."""
    if not isinstance(out, TensorVal) or out.kept_singleton is not None or _width(layer) != 1:
        return out
    shape = out.shape
    if shape is None or shape.variadic or len(shape.dims) < 2 or value(shape.dims[-1]) != 1:
        return out
    return out.with_(kept_singleton=len(shape.dims) - 1, kept_at=HeadMark(node))


def _width(layer) -> Optional[int]:
    if isinstance(layer, LayerVal):
        return value(layer.second) if layer.kind == "Linear" else None
    if isinstance(layer, Sequential) and layer.layers:
        *before, last = layer.layers
        if isinstance(last, KeepShape):  # Linear(d, 1) then Sigmoid/Tanh: still one value per row
            return _width(Sequential(tuple(before)))
        return _width(last)
    return None
