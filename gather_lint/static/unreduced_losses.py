"""Losses asked for one value per sample (`reduction="none"`): their shape, and the syntax that shows one.

`F.smooth_l1_loss(q, target, reduction="none")` on [B] inputs is [B], one TD loss per transition;
`F.cross_entropy(logits [B, C], labels [B], reduction="none")` is [B] too. Such a vector is per row
by construction, so a per-sample column [B, 1] that meets it (importance weights of a prioritized
replay kept as `weights.reshape(-1, 1)`) makes the [B, B] outer product (squeezed_picks.py).
"""
from __future__ import annotations

import ast
from typing import Optional

from dataclasses import dataclass

from ..dims import Shape
from . import tensor_ops as ops
from .tree_walk import env_key
from .values import Literal, QualName, TensorVal

_ELEMENTWISE = frozenset({"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy",
                          "binary_cross_entropy_with_logits", "soft_margin_loss"})
_CLASSES = frozenset({"cross_entropy", "nll_loss"})  # dim 1 holds the classes: one loss per other position
LOSSES = _ELEMENTWISE | _CLASSES


def shape(func: str, args: list, kwargs: dict) -> Optional[TensorVal]:
    """The unreduced loss of `F.func(input, target, reduction="none")`; None for any other call."""
    reduction = kwargs.get("reduction")
    if func not in LOSSES or not (isinstance(reduction, Literal) and reduction.value == "none"):
        return None
    given = args[:2] + [kwargs.get(k) for k in ("input", "target")[len(args[:2]):]]
    if len(given) < 2 or not all(isinstance(t, TensorVal) for t in given[:2]):
        return TensorVal(None)
    made, target = given[0], given[1]
    if func in _ELEMENTWISE:
        out = ops.binary(made, target, "+")
        return out if isinstance(out, TensorVal) else TensorVal(None)
    s = made.shape
    if s is None or s.variadic or len(s.dims) < 2:
        return TensorVal(None)
    return TensorVal(Shape(s.dims[:1] + s.dims[2:]))


@dataclass(frozen=True)
class UnreducedModule(QualName):
    """`nn.SmoothL1Loss(reduction="none")`: calling it runs the functional loss without reducing."""


@dataclass(frozen=True)
class LegacyFlagsModule(QualName):
    """`nn.KLDivLoss(size_average=False)`: the reduction the old flags choose is left unknown."""


def module(name: str, kwargs: dict) -> QualName:
    """The loss module `nn.X(**kwargs)` stands for (broadcast_sites.loss_module's functional name). The old
    flags count too: `reduce=False` is `reduction="none"`, whatever `size_average` says."""
    reduction, legacy = kwargs.get("reduction"), kwargs.get("reduce")
    if isinstance(reduction, Literal) and reduction.value == "none" or isinstance(legacy, Literal) and legacy.value is False:
        return UnreducedModule(name)
    return LegacyFlagsModule(name) if "reduce" in kwargs or "size_average" in kwargs else QualName(name)


def called_with(loss: QualName, kwargs: dict) -> dict:
    """A call of such a module: the functional form's arguments, its reduction (or its old flags) included."""
    if isinstance(loss, UnreducedModule):
        return {**kwargs, "reduction": Literal("none")}
    return {**kwargs, "reduce": None} if isinstance(loss, LegacyFlagsModule) else kwargs


def spelled(node, env=None) -> bool:
    """`F.mse_loss(a, b, reduction="none")` / `torch.nn.functional.cross_entropy(..., reduction='none')`,
    or a call of a loss module built with it (`self.crit(q, y)`, `env` holding what `self.crit` is)."""
    if not isinstance(node, ast.Call):
        return False
    if env is not None and isinstance(env.get(env_key(node.func) or ""), UnreducedModule):
        return True
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return name in LOSSES and any(k.arg == "reduction" and isinstance(k.value, ast.Constant) and k.value.value == "none"
                                  for k in node.keywords)
