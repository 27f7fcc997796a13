"""What a few standard-library calls give, as far as tensors and batches go.

`random.sample(buffer, n)` / `random.choices(buffer, k=n)` pick items of the population (a replay buffer's
transitions), so the list they give has its items' facts; `random.randrange(n)` / `random.randint(a, b)` give
a Python int and `random.random()` / `random.uniform(a, b)` a float. `copy.deepcopy(t)` of a tensor holds its values. `collections.deque(maxlen=n)` is an empty
list that `append` grows, like `[]`; `deque(items)` holds the items.
"""
from __future__ import annotations

import math

from ..dims import value
from . import tensor_lists
from .scalars import NumberVal
from .tensor_ops import Repeated
from .values import DimVal, Literal, QualName, SeqVal, TensorVal

_PICKS = ("sample", "choices")
_INTS = ("randrange", "randint", "getrandbits")
_FLOATS = ("random", "uniform", "gauss", "normalvariate", "betavariate", "expovariate")
ROUNDING = {"ceil": math.ceil, "floor": math.floor, "trunc": math.trunc}


def rounded(number) -> DimVal:
    """`round(x)` of one number: a Python int, its value known when x's is (banker's rounding, as Python)."""
    known = _known(number)
    return DimVal(round(known) if known is not None else None)


def _known(number):
    """The value of a tracked Python number (a float or int literal, an int), or None."""
    if isinstance(number, Literal) and type(number.value) in (int, float):
        return number.value
    return value(number.dim) if isinstance(number, DimVal) else None


def call(module: str, func: str, args: list, kwargs: dict):
    """The value of `module.func(*args, **kwargs)` for the calls above; None for any other."""
    if module == "random":
        if func in _PICKS and args:
            item = tensor_lists.item_of(args[0])
            count = args[1] if func == "sample" and len(args) > 1 else kwargs.get("k")
            return Repeated(item, count.dim if isinstance(count, DimVal) else None) if item is not None else None
        if func in _INTS:
            return DimVal(None)
        if func in _FLOATS:
            return NumberVal()
        if func == "choice" and args:
            return tensor_lists.item_of(args[0])
        if func == "Random":
            return QualName("random")  # rng = random.Random(seed): its methods are the module's functions
    if module == "math" and func in ROUNDING and len(args) == 1 and not kwargs:
        number = _known(args[0])
        return DimVal(ROUNDING[func](number) if number is not None else None)  # an int, its value known or not
    if module == "copy" and func in ("copy", "deepcopy") and len(args) == 1 and not kwargs \
            and isinstance(args[0], TensorVal):
        return args[0]  # copy.deepcopy(t): the same values in another tensor
    if module == "collections" and func == "deque":
        items = args[0] if args else kwargs.get("iterable")
        if items is None:
            return SeqVal(())
        return items if isinstance(items, SeqVal) and not items.names else None
    return None

