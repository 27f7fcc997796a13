"""Python numbers of unknown value: `smoothing=0.1`, `eps: float`, and arithmetic on them.

`torch.tensor(1.0 - smoothing)` is then known to be 0-d, which matters where a 0-d tensor is
not a scalar: scatter's `src` must have the index's rank, unlike a Python number `value`.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional

from ..contract import Domain
from ..dims import Shape, value
from .tensor_ops import Repeated
from .values import JOINERS, DimVal, Literal, TensorVal, join_all


@dataclass(frozen=True)
class NumberVal:
    """A Python float whose value is not known (a parameter's default or annotation says float)."""


@dataclass(frozen=True)
class BoolVal:
    """A Python bool whose value is not known (`random.random() < 0.1`, a done flag)."""


@dataclass(frozen=True)
class FlagInt(DimVal):
    """A Python int that is 0 or 1: `int(flag)` of a bool whose value is not known (a drop flag, a done flag)."""

    line: Optional[int] = None


@dataclass(frozen=True)
class ChosenInt(DimVal):
    """A Python int that is one of known ints: `alphabet[base]` of a dict written out with int values, the key
    not known. torch.tensor of such ints holds values up to the largest (GL011 reads that bound)."""

    choices: tuple = ()
    origin: str = ""


def chosen_domain(element) -> Optional[Domain]:
    """The bound of a tensor made of chosen ints: one past the largest choice (reached by a key that maps to it)."""
    if not isinstance(element, ChosenInt) or not element.choices or min(element.choices) < 0:
        return None
    top = max(element.choices)
    return Domain(top + 1, origin=f"{element.origin}, {top} among them", repeats=True, bound_only=True)


def is_bool(value) -> bool:
    return isinstance(value, BoolVal) or (isinstance(value, Literal) and isinstance(value.value, bool))


def number_dtype(value) -> str:
    """The dtype torch.tensor gives a tracked Python number: float32, bool or int64."""
    return "float32" if is_float_number(value) else "bool" if is_bool(value) else "int64"


def is_float_number(value) -> bool:
    return isinstance(value, NumberVal) or (isinstance(value, Literal) and isinstance(value.value, float))


def arith(left, right) -> Optional[NumberVal]:
    """`1.0 - smoothing`, `smoothing / (n - 1)`: numbers in, a number out (a tensor operand gives a tensor)."""
    sides = (left, right)
    if any(is_float_number(s) for s in sides) and all(is_float_number(s) or isinstance(s, DimVal) for s in sides):
        return NumberVal()
    return None


def quotient(a, b):
    """`a / b` of two ints: the float itself when both are known (`math.ceil(h / 28)` is then a known size),
    else a float of unknown value."""
    top, bottom = value(a), value(b)
    if isinstance(top, int) and isinstance(bottom, int) and bottom != 0:
        return Literal(top / bottom)
    return NumberVal()


_PYTHON_ARITH = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
                 "/": lambda a, b: a / b, "//": lambda a, b: a // b, "**": lambda a, b: a ** b}


def known_arith(left, right, symbol: str) -> Optional[Literal]:
    """`(x_max - x_min) / n_cells` of numbers all known, a float among them: the float itself (a cell size the
    code works out from its config), as Python computes it."""
    sides = [s.value if isinstance(s, Literal) and type(s.value) in (int, float) else (
        value(s.dim) if isinstance(s, DimVal) and type(value(s.dim)) is int else None) for s in (left, right)]
    if None in sides or not any(isinstance(s, float) for s in sides) or symbol not in _PYTHON_ARITH:
        return None
    try:
        made = _PYTHON_ARITH[symbol](*sides)
    except (ZeroDivisionError, OverflowError):
        return None
    return Literal(float(made)) if isinstance(made, (int, float)) and abs(made) < 1e300 else None


def known_product(left, right) -> Optional[Literal]:
    """`capacity * seq_len` with both values known (a float literal times a size): the float itself, so that
    `k = int(capacity * seq_len)` is a known size (a top-k that keeps fewer positions than the dim holds)."""
    sides = [s.value if isinstance(s, Literal) and isinstance(s.value, float) else (
        value(s.dim) if isinstance(s, DimVal) else None) for s in (left, right)]
    if None in sides or not any(isinstance(s, Literal) and isinstance(s.value, float) for s in (left, right)):
        return None
    return Literal(float(sides[0] * sides[1]))


def tensor_of(value) -> Optional[TensorVal]:
    """`torch.tensor(number)`: a 0-d float32 tensor; of a 0/1 int, a 0-d int64 tensor holding 0 or 1."""
    if is_float_number(value):
        return TensorVal(Shape(()), "float32", origin="constructor")
    if isinstance(value, FlagInt):
        origin = f"0 and 1 (`int()` of a bool at line {value.line})"
        return TensorVal(Shape(()), "int64", Domain(2, origin=origin, repeats=True, binary=True), origin="constructor")
    return None


def bind_float_params(env: dict, node) -> None:
    """Parameters annotated `float`, or with a float literal default, hold a Python number."""
    args = node.args
    positional = args.posonlyargs + args.args
    defaults = dict(zip([p.arg for p in positional[len(positional) - len(args.defaults):]], args.defaults))
    defaults.update({p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    for param in positional + args.kwonlyargs:
        if env.get(param.arg) is not None:
            continue
        annotated = isinstance(param.annotation, ast.Name) and param.annotation.id == "float"
        default = defaults.get(param.arg)
        if annotated or (isinstance(default, ast.Constant) and isinstance(default.value, float)):
            env[param.arg] = NumberVal()


def joined_numbers(items) -> Optional[object]:
    """What a list of Python numbers holds, item for item: a float of unknown value if any is a float (torch.tensor
    makes float32 of them), else the ints' join; None unless every item is a number (bools are not)."""
    items = list(items)
    if not items or not all(is_number(i) and not is_bool(i) for i in items):
        return None
    if any(is_float_number(i) for i in items):
        return NumberVal()
    return join_all(items) if len(set(items)) == 1 else chosen_of(items) or join_all(items)


_MOST_CHOICES = 64  # more known ints than that in one list: their values are not followed one by one


def chosen_of(items, origin: str = "ints written out in the list") -> Optional[ChosenInt]:
    """Several known ints (or ints already chosen among known ones) as one int that is one of them: what a list
    of them holds, item for item (`[pad] * n + list(range(k))`), with its largest value kept. None when any is
    not known."""
    choices = set()
    for item in items:
        if isinstance(item, ChosenInt) and item.choices:
            choices.update(item.choices)
        elif isinstance(item, DimVal) and isinstance(value(item.dim), int) and not isinstance(item.dim, bool):
            choices.add(value(item.dim))
        else:
            return None
    if not choices or len(choices) > _MOST_CHOICES:
        return None
    origins = {i.origin for i in items if isinstance(i, ChosenInt) and i.origin}
    return ChosenInt(None, choices=tuple(sorted(choices)), origin=origins.pop() if len(origins) == 1 else origin)


def is_number(value) -> bool:
    """A Python int or float the analysis tracks (its value may be unknown)."""
    return is_float_number(value) or isinstance(value, DimVal) or is_bool(value)


def tensor_of_numbers(data, dtype: Optional[str] = None) -> Optional[TensorVal]:
    """`torch.tensor([alpha, 1 - alpha])`, `torch.as_tensor(weights)` with `weights` a list passed to the
    constructor: a 1-d tensor (2-d for a list of equal-length lists) of tracked numbers. Any item that is
    not a known number (a tensor, a list of unknown length) leaves the shape unknown."""
    from .values import SeqVal

    if isinstance(data, Repeated) and is_number(data.element) and (
            isinstance(value(data.length), int) or isinstance(data.element, ChosenInt)):
        # `ids.tolist()` of more ids than are spelled out one by one: that many numbers of one kind; a row of a
        # dict's ints (`[alphabet[b] for b in s]`) of whatever length
        made = tensor_of_numbers(SeqVal((data.element,)), dtype)
        length = value(data.length) if isinstance(value(data.length), int) else data.length
        return made.with_(shape=Shape((length,))) if made is not None else None
    if not isinstance(data, SeqVal) or data.names:
        return None
    items = data.items
    if items and all(isinstance(i, (SeqVal, Repeated)) for i in items):
        rows = [tensor_of_numbers(i) for i in items]
        if any(r is None for r in rows) or len({r.shape for r in rows}) != 1:
            return None
        inner, kinds = rows[0].shape.dims, {r.dtype for r in rows}
        row_domain = rows[0].domain if all(r.domain == rows[0].domain for r in rows) else None
    elif all(is_number(i) for i in items):
        inner, row_domain = (), None
        kinds = {number_dtype(i) for i in items}
    else:
        return None
    made = "float32" if "float32" in kinds or not items else (kinds.pop() if len(kinds) == 1 else None)
    flags = tensor_of(items[0]) if items and all(isinstance(i, FlagInt) for i in items) and dtype in (None, "int64") else None
    domain = flags.domain if flags is not None else (
        chosen_domain(items[0]) if len(set(items)) == 1 and dtype in (None, "int64") else None) or (
        row_domain if row_domain is not None and row_domain.bound_only and dtype in (None, "int64") else None)
    return TensorVal(Shape((len(items),) + inner), dtype or made, domain,
                     origin="constructor")  # [int(p < q) for ...]: 0s and 1s; [alphabet[b] for b in s]: its values


def lowest_int(data) -> Optional[int]:
    """The smallest known int in a (nested) list of tracked numbers: a negative one is padding put in."""
    from ..dims import value
    from .values import SeqVal

    if isinstance(data, SeqVal):
        found = [lowest_int(item) for item in data.items]
        found = [f for f in found if f is not None]
        return min(found) if found else None
    return value(data.dim) if isinstance(data, DimVal) and isinstance(value(data.dim), int) else None


def _joined_numbers(a, b):
    """Two paths' floats (`random.choice([-1.0, 10.0])`, a reward of either sign): a float."""
    return NumberVal() if is_float_number(a) and is_float_number(b) else None


JOINERS[NumberVal] = JOINERS[Literal] = _joined_numbers
