"""Columns made on purpose: a value head's output and a `keepdim=True` reduction.

A layer whose output width is a literal 1 (`nn.Linear(d, 1)`, an nn.Sequential ending in one) gives a
critic's `values = self.v(obs)` [B, 1], one value per row, like the column a gather keeps; so does
`next_q.max(dim=-1, keepdim=True)` over [B, A]. Met by the per-row returns or rewards [B], broadcasting
gives [B, B]: every value against every return, and a mean over it trains on the wrong numbers, with at
most torch's size warning in a loss. The column is marked the way a gather's kept singleton is, so the
GL006 checks of arithmetic, losses and torch.where apply to it; the mark is reported where the two meet,
since the column is what the layer or the reduction was asked for and the squeeze belongs at the use.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Optional

from ..dims import value
from . import script_drivers
from .modules import KeepShape, Sequential
from .values import LayerVal, SeqVal, TensorVal
from .text_scan import file_test


_WIDTH_ONE = re.compile(r"Linear\([^()]*,\s*1\s*[,)]")  # nn.Linear(d, 1), nn.Linear(d, 1, bias=False)


@file_test
def scripted(text: str) -> bool:
    """A script that builds a width-1 linear head, takes a keepdim reduction or a top-k, or asks a loss for
    one value per sample: its functions are read whole, since where the column is used (`loss = ((model(x)
    - y) ** 2).mean()`, `(td * weights).mean()`, `pred.eq(labels)`) names no op of the family."""
    return script_drivers.is_script(text) and (  # is_script first: most files ask it anyway (memoised)
        "keepdim=True" in text or "reduction=\"none\"" in text or "topk(" in text
        or "reduction='none'" in text or _WIDTH_ONE.search(text) is not None)


# `self.value_head = nn.Linear(hidden, 1)`: an attribute holding a width-1 head (the class's own methods use it)
_WIDTH_ONE_ATTRIBUTE = re.compile(r"self\.(\w+)[ \t]*=[ \t]*(?:nn\.|torch\.nn\.)?Linear\([^()]*,\s*1\s*[,)]")


@file_test
def width_one_attributes(text: str) -> frozenset:
    """The attributes a file's classes bind to a width-1 linear head: in a library (no driver to read whole),
    the methods calling `self.<name>(` are read, since where the column meets a per-row tensor names no op."""
    if "Linear(" not in text or _WIDTH_ONE.search(text) is None:  # the head alone, searched from each `Linear(`:
        return frozenset()  # the binding's pattern starts at every `self.` of a model file
    return frozenset(_WIDTH_ONE_ATTRIBUTE.findall(text))


def calls_width_one(chunk: str, attributes: frozenset) -> bool:
    return any(f"self.{name}(" in chunk for name in attributes)


class HeadMark:
    """`kept_at` of such a column: not a gather call, so nothing is reported or fixed where it is made."""

    def __init__(self, node, kept_by: str = "a width-1 layer's"):
        self.node = node
        self.kept_by = kept_by


# reductions whose keepdim=True result holds one value (or, argmax/argmin, one position) per row: a
# position column is a fine gather index, but compared with per-row labels [B] it is the [B, B] table
_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "amax", "amin", "logsumexp", "norm", "prod", "std", "var",
                         "median", "nansum", "nanmean", "argmax", "argmin"})


def reduced(method: str, owner, kwargs: dict, result, node):
    """`x.max(-1, keepdim=True)` on [B, A] (A not 1): its values and positions [B, 1] marked like a
    head's output."""
    keep = kwargs.get("keepdim")
    if method not in _REDUCTIONS or getattr(keep, "value", None) is not True or not _rows(owner):
        return result
    return _columns(result, node, "a keepdim reduction's")


def top_one(method: str, owner, args: list, kwargs: dict, result, node):
    """`x.topk(1, dim=-1)` on [B, A]: values and positions [B, 1], the keepdim max by another name."""
    k = kwargs.get("k", args[0] if args else None)
    if method != "topk" or value(getattr(k, "dim", None)) != 1 or not _rows(owner):
        return result
    return _columns(result, node, "a top-1's")


def _rows(owner) -> bool:
    """[B, A] with A not 1: one row per sample."""
    if not isinstance(owner, TensorVal):
        return False
    source = owner.shape
    return source is not None and not source.variadic and len(source.dims) == 2 and value(source.dims[-1]) != 1


def _columns(result, node, kept_by: str):
    if isinstance(result, SeqVal) and result.items:  # (values, indices) of max/min/median/topk
        return replace(result, items=tuple(_column(t, node, kept_by) for t in result.items))
    return _column(result, node, kept_by)


def _column(t, node, kept_by: str):
    if not isinstance(t, TensorVal) or t.kept_singleton is not None or t.shape is None or t.shape.variadic:
        return t
    if len(t.shape.dims) != 2 or value(t.shape.dims[1]) != 1:
        return t
    return t.with_(kept_singleton=1, kept_at=HeadMark(node, kept_by))


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
