"""Distributions as values: the batch shape a `torch.distributions` object keeps, and what it returns.

`Categorical(logits=x)` / `Categorical(probs)` holds one distribution per row of x: batch shape
`x.shape[:-1]`, values in `[0, x.shape[-1])`. `Normal(loc, scale)` and the other scalar-event
distributions have the broadcast shape of their parameters; `Bernoulli(probs=p)` the shape of p.
`sample()`, `log_prob(v)` and `entropy()` return that batch shape; a Categorical's `probs` and `logits`
are its table, [*batch, classes], and `mean`/`stddev`/`variance` of the others have the batch shape. `log_prob` of a value kept as a
column, [N, 1] on a batch of N, broadcasts to [N, N] (GL006), reported where it is called.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional

from ..contract import Domain
from ..dims import Dim, Shape, broadcast, must_equal, value
from ..rules import gl006_missing_squeeze as rule
from .scalars import NumberVal, is_float_number
from .values import DimVal, SeqVal, TensorVal
from .tensor_ops import fixed_shape
from .text_scan import file_test

_CATEGORICAL = ("Categorical",)
_LOCATION_SCALE = ("Normal", "Laplace", "Cauchy", "Gumbel", "LogNormal", "StudentT")
_ONE_PARAMETER = {"Bernoulli": ("probs", "logits"), "Poisson": ("rate",), "Exponential": ("rate",),
                  "Geometric": ("probs", "logits")}
KINDS = frozenset(_CATEGORICAL + _LOCATION_SCALE + tuple(_ONE_PARAMETER))


@dataclass(frozen=True)
class DistVal:
    kind: str
    batch: Optional[Shape]  # None: unknown
    categories: Dim = None  # Categorical: the number of classes


@file_test
def spelled_in(text: str) -> bool:
    """Files that score values under a distribution they build."""
    return "log_prob(" in text and "distributions" in text


def make(kind: str, args: list, kwargs: dict) -> Optional[DistVal]:
    if kind in _CATEGORICAL:
        table = kwargs.get("logits", kwargs.get("probs", args[0] if args else None))
        shape = fixed_shape(table)
        if shape is None or not shape.dims:
            return DistVal(kind, None)
        return DistVal(kind, Shape(shape.dims[:-1]), shape.dims[-1])
    if kind in _LOCATION_SCALE:
        loc = kwargs.get("loc", args[0] if args else None)
        scale = kwargs.get("scale", args[1] if len(args) > 1 else None)
        if kind == "StudentT":
            loc, scale = kwargs.get("loc", args[1] if len(args) > 1 else None), kwargs.get("scale", args[2] if len(args) > 2 else None)
        shapes = [fixed_shape(v) if isinstance(v, TensorVal) else (Shape(()) if _is_number(v) else None) for v in (loc, scale)]
        return DistVal(kind, broadcast(shapes[0], shapes[1]) if None not in shapes else None)
    words = _ONE_PARAMETER[kind]
    parameter = next((kwargs[w] for w in words if w in kwargs), args[0] if args else None)
    return DistVal(kind, fixed_shape(parameter))


def method(interp, node: ast.Call, dist: DistVal, name: str, args: list, kwargs: dict):
    batch = dist.batch
    if name in ("sample", "rsample"):
        extra = args[0] if args else kwargs.get("sample_shape")
        front = _sample_dims(extra)
        if batch is None or front is None:
            return TensorVal(None, "int64" if dist.kind in _CATEGORICAL else None)
        shape = Shape(front + batch.dims)
        if dist.kind in _CATEGORICAL:
            domain = Domain(dist.categories, origin=f"samples of a {dist.kind} over {dist.categories} classes",
                            category=True, repeats=True) if dist.categories is not None else None
            return TensorVal(shape, "int64", domain)
        return TensorVal(shape, "float32")
    if name == "log_prob" and args:
        grown = _column_on_batch(batch, args[0])
        if grown is not None:
            text = interp.source.segment(node.args[0]) if node.args else "value"
            interp.flag(node, rule.check_distribution_value(dist.kind, batch, args[0].shape, grown, text), None)
            return TensorVal(grown, "float32")
        return TensorVal(batch, "float32") if batch is not None else None
    if name == "entropy" and not args:
        return TensorVal(batch, "float32") if batch is not None else None
    return None


def attribute(dist: DistVal, name: str) -> Optional[TensorVal]:
    """`dist.probs` / `dist.logits` (a Categorical's normalised table) and the moments of the others."""
    batch = dist.batch
    if batch is None:
        return None
    if dist.kind in _CATEGORICAL and name in ("probs", "logits"):
        return TensorVal(Shape(batch.dims + (dist.categories,), batch.variadic), "float32")
    if dist.kind not in _CATEGORICAL and name in ("mean", "stddev", "variance", "mode"):
        return TensorVal(batch, "float32")
    return None


def _column_on_batch(batch: Optional[Shape], given) -> Optional[Shape]:
    """[N, N] for a value [N, 1] on a batch [N] (N not 1), else None."""
    if batch is None or batch.variadic or len(batch.dims) != 1 or not isinstance(given, TensorVal):
        return None
    shape = given.shape
    if shape is None or shape.variadic or len(shape.dims) != 2 or value(shape.dims[1]) != 1:
        return None
    n = batch.dims[0]
    if not must_equal(shape.dims[0], n) or value(n) == 1 or n is None:
        return None
    return Shape((n, n))


def _sample_dims(extra) -> Optional[tuple]:
    if extra is None:
        return ()
    if isinstance(extra, SeqVal) and all(isinstance(i, DimVal) for i in extra.items):
        return tuple(i.dim for i in extra.items)
    return None


def _is_number(v) -> bool:
    """A Python number parameter (`Normal(mu, 1.0)`): it broadcasts like a 0-d tensor."""
    return isinstance(v, (DimVal, NumberVal)) or is_float_number(v)
