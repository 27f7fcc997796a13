"""torch.einsum's result shape: each output letter takes the size its operands give it.

`sims = torch.einsum("bd,bsd->bs", q, keys)` is how attention-like scores are often written; with
the result unknown, the top-k positions drawn from it reach a gather without a shape.
"""
from __future__ import annotations

from typing import Dict, List, Optional

from ..dims import Shape, value
from .values import Literal, SeqVal, TensorVal


def result(args: list) -> Optional[TensorVal]:
    """torch.einsum(equation, *operands) or torch.einsum(equation, [operands])."""
    if not args or not isinstance(args[0], Literal) or not isinstance(args[0].value, str):
        return None
    operands = list(args[1].items) if len(args) == 2 and isinstance(args[1], SeqVal) else args[1:]
    if not operands:
        return None
    dtypes = {t.dtype if isinstance(t, TensorVal) else None for t in operands}
    dtype = dtypes.pop() if len(dtypes) == 1 else None
    shape = _shape(args[0].value, operands)
    return TensorVal(shape, dtype)


def _shape(equation: str, operands: list) -> Optional[Shape]:
    equation = equation.replace(" ", "")
    if "." in equation:
        return None  # `...` broadcasting: the letters do not name every dim
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(operands) or not all(term.isalpha() for term in terms):
        return None
    if not arrow:  # implicit form: the letters used once, in alphabetical order
        letters = "".join(terms)
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    if not output.isalpha() and output:
        return None
    sizes: Dict[str, List[object]] = {}
    for term, operand in zip(terms, operands):
        dims = _dims(operand)
        if dims is None:
            continue
        if len(dims) != len(term):
            return None  # torch raises; leave it unknown rather than guess
        for letter, dim in zip(term, dims):
            sizes.setdefault(letter, []).append(dim)
    return Shape(tuple(_size(sizes.get(letter, [])) for letter in output))


def _dims(operand):
    if not isinstance(operand, TensorVal) or operand.shape is None or operand.shape.variadic:
        return None
    return operand.shape.dims


def _size(seen: List[object]):
    """A letter's size: a size-1 dim broadcasts against the others, so it is the last resort."""
    known = [d for d in seen if d is not None]
    larger = [d for d in known if value(d) != 1]
    return (larger or known or [None])[0]
