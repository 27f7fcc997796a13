"""Windows of an ids tensor: which positions a slice, a shift or a model's logits cover (GL007).

A window is (start, end), each a linear form over names and LENGTH, the length of the ids it is counted
in: `ids[:, 1:]` is (1, LENGTH), `logits[:, :-1]` (0, LENGTH - 1). token_shift.py pairs the windows of
logits and labels; the modules it consults for model calls, batches, decoders and masks read slices into
the same windows.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

Lin = Tuple[Tuple[str, int], ...]  # a linear expression: sorted (symbol, coefficient); "" is the constant


def linear_form(terms: Dict[str, int]) -> Lin:
    return tuple(sorted((k, v) for k, v in terms.items() if v))


def add_lin(a: Lin, b: Lin, sign: int = 1) -> Lin:
    out = dict(a)
    for k, v in b:
        out[k] = out.get(k, 0) + sign * v
    return linear_form(out)


ZERO: Lin = ()
ONE: Lin = (("", 1),)
LENGTH = "<len>"  # the length of the ids tensor a window is counted in (not a Python name)

# a window is (start, end): positions of the ids, linear in LENGTH (the end of the ids is LENGTH)
Window = Tuple[Lin, Lin]
FULL: Window = (ZERO, ((LENGTH, 1),))


@dataclass(frozen=True)
class View:
    """Positions `window` of the ids tensor `base` (for logits: the positions of the ids they were computed at)."""

    base: tuple
    window: Window
    logits: bool = False
    causal: Optional[str] = None  # the causal LM class that made these logits
    call: Optional[ast.Call] = None  # the model call
    keep: Optional[str] = None  # the logits_to_keep argument's text
    model_class: Optional[str] = None  # the class of the model that made these logits, when known
    scores: bool = False  # a per-token gather's result: one value per position of `window` of the ids
    flat: bool = False  # flattened for a per-token loss (`view(-1, V)`): pairs still, but slices no longer place
    mask: bool = False  # `ids != pad`: one flag per position of `window` of the ids (token_masks)

    @property
    def is_ids(self) -> bool:
        return not self.logits and not self.scores and not self.mask


def sign_of(x: Lin) -> Optional[int]:
    """+1 for a non-negative offset, -1 for a negative one, None when unknown (symbols count as sizes)."""
    coefs = [v for _, v in x]
    if not coefs or all(v > 0 for v in coefs):
        return 1
    if all(v < 0 for v in coefs):
        return -1
    return None


def constant_of(x: Lin) -> Optional[int]:
    return None if any(k for k, _ in x) else dict(x).get("", 0)


def cut_window(w: Window, lower: Optional[Lin], upper: Optional[Lin]) -> Optional[Window]:
    """The window of w[lower:upper]: a non-negative bound counts from its start, a negative one from its end."""
    def at(x: Lin) -> Optional[Lin]:
        s = sign_of(x)
        return None if s is None else add_lin(w[0] if s == 1 else w[1], x)
    start = w[0] if lower is None else at(lower)
    end = w[1] if upper is None else at(upper)
    return None if start is None or end is None else (start, end)


def window_length(w: Window) -> Lin:
    return add_lin(w[1], w[0], -1)


def linear_of(node) -> Optional[Lin]:
    """An int expression as a linear form over the names (and attribute/call texts) it uses."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return linear_form({"": node.value})
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = linear_of(node.operand)
        return None if inner is None else add_lin(ZERO, inner, -1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        a, b = linear_of(node.left), linear_of(node.right)
        return None if a is None or b is None else add_lin(a, b, 1 if isinstance(node.op, ast.Add) else -1)
    if isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
        return linear_form({ast.unparse(node): 1})
    return None
