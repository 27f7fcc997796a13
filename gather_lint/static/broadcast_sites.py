"""Calls where two tensors broadcast against each other without an operator: `torch.mul`/`torch.max(a, b)`
and friends, elementwise losses, `torch.where`, `masked_select`. A gathered `[B, 1]` meeting a `[B]` target there becomes `[B, B]`
(GL006), as it would in `a * b`.

Checked in torch 2.13: mse_loss, l1_loss, smooth_l1_loss and huber_loss broadcast with only a
UserWarning; kl_div and poisson_nll_loss broadcast silently. binary_cross_entropy(_with_logits)
and soft_margin_loss raise instead; nll_loss and cross_entropy read dim 1 as classes (no broadcast).
"""
from __future__ import annotations

import ast
from typing import Iterator, Optional, Tuple

LOSS_FUNCTIONS = {"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "kl_div", "poisson_nll_loss"}
# nn loss modules, by the functional form their call runs (nll_loss and cross_entropy broadcast nothing:
# class_targets.py reads their targets, normalised_consumers.py their classes dim)
LOSS_MODULES = {"MSELoss": "mse_loss", "L1Loss": "l1_loss", "SmoothL1Loss": "smooth_l1_loss",
                "HuberLoss": "huber_loss", "KLDivLoss": "kl_div", "PoissonNLLLoss": "poisson_nll_loss",
                "CrossEntropyLoss": "cross_entropy", "NLLLoss": "nll_loss"}
_FUNCTIONAL = "torch.nn.functional"
# torch functions that combine two tensors elementwise, with the operator they behave like
BINARY = {"mul": "*", "multiply": "*", "add": "+", "sub": "-", "subtract": "-", "div": "/", "true_divide": "/",
          "maximum": "max", "minimum": "min", "max": "max", "min": "min", "fmax": "max", "fmin": "min",
          "eq": "==", "ne": "!=", "lt": "<", "gt": ">", "le": "<=", "ge": ">="}


def loss_module(module: str, func: str) -> Optional[str]:
    """`nn.MSELoss()` stands for the functional loss its call runs: 'torch.nn.functional.mse_loss'."""
    if module in ("torch.nn", "torch.nn.modules", "nn", "torch.nn.modules.loss") and func in LOSS_MODULES:
        return f"{_FUNCTIONAL}.{LOSS_MODULES[func]}"
    return None


Pair = Tuple[ast.AST, object, ast.AST, object, str]


def pairs(module: str, func: str, node: ast.Call, args: list, kwargs: dict) -> Iterator[Pair]:
    """(node, value, node, value, what) of each pair of arguments the call broadcasts together."""
    keywords = {k.arg: k.value for k in node.keywords if k.arg}
    positional = [a for a in node.args if not isinstance(a, ast.Starred)]
    if len(positional) != len(node.args):
        return

    def arg(position: int, name: str):
        if name in keywords:
            return keywords[name], kwargs.get(name)
        if position < len(positional):
            return positional[position], args[position] if position < len(args) else None
        return None, None

    if module in (_FUNCTIONAL, "torch.nn.functional") and func in LOSS_FUNCTIONS:
        (a, va), (b, vb) = arg(0, "input"), arg(1, "target")
        if a is not None and b is not None:
            yield a, va, b, vb, f"F.{func}()"
    elif module == "torch" and func in BINARY and len(positional) == 2:
        (a, va), (b, vb) = arg(0, "input"), arg(1, "other")
        yield a, va, b, vb, f"torch.{func}()"
    elif module == "torch" and func == "where" and len(positional) == 3:
        (c, vc), (a, va), (b, vb) = arg(0, "condition"), arg(1, "input"), arg(2, "other")
        yield a, va, b, vb, "torch.where()"
        yield a, va, c, vc, "torch.where()"
        yield b, vb, c, vc, "torch.where()"
    elif module == "torch" and func == "masked_select":
        (a, va), (m, vm) = arg(0, "input"), arg(1, "mask")
        if a is not None and m is not None:
            yield a, va, m, vm, "torch.masked_select()"
