"""Ids made as a constant: `torch.full(size, c)`, `x.new_full(size, c)`, `torch.full_like(x, c)`, and
the ones of `torch.ones_like(ids)` / `ids.new_ones(...)` / `torch.ones(..., dtype=torch.long)` (token type
ids of 1 for a model with a single token type).

Every element is c, so c is among the values of the tensor and of any part of it: a fill equal to a
table's size (`torch.full((B, L), vocab_size)`, a pad or mask id one past the vocabulary) reads a row
the table does not have. Given as a value range of size c + 1, which the index checks compare with
the dim or table the ids reach. Negative fills are padding (interp_helpers._with_sentinel).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from ..contract import Domain
from ..dims import Sym, dim_text, value
from .tree_walk import literal_numbers
from .value_ranges import one_more
from .values import ALL_EQUAL, INCLUDES, DimVal, TensorVal

_ALL_EQUAL = ALL_EQUAL
_NOT_IDS = ("bool", "float16", "bfloat16", "float32", "float64")


def filled(made, fill, line: int) -> Optional[TensorVal]:
    """`made` (a full tensor) with the fill value among its values, when that is a positive integer."""
    if not isinstance(made, TensorVal) or not isinstance(fill, DimVal) or fill.dim is None or made.dtype in _NOT_IDS:
        return made
    size = value(fill.dim)
    if size is not None and size <= 0:
        return made
    if size is None and not isinstance(fill.dim, Sym):
        return made
    origin = f"{_ALL_EQUAL}{dim_text(fill.dim)} (the fill at line {line})"
    base = made.domain or Domain()
    return made.with_(domain=replace(base, size=one_more(fill.dim), origin=origin, category=False))


def fill_of(t):
    """The constant a full tensor holds (`torch.full_like(ids, n)`, marked by `filled` above): an int or a named size."""
    domain = t.domain if isinstance(t, TensorVal) else None
    if domain is None or not domain.origin.startswith(_ALL_EQUAL) or domain.size is None:
        return None
    size = value(domain.size)
    if isinstance(size, int):
        return size - 1
    return None


def through_cat(items, joined):
    """`torch.cat([ids, torch.full((B, 1), eos)])`: the constant is among the joined values too.
    Pieces that are all the same ids (`torch.cat([batch["chosen"], batch["rejected"]])`) stay those ids."""
    if not isinstance(joined, TensorVal) or joined.domain is not None:
        return joined
    domains = {t.domain if isinstance(t, TensorVal) else None for t in items}
    if len(domains) == 1 and None not in domains:
        return joined.with_(domain=domains.pop())
    constants = [t.domain for t in items if isinstance(t, TensorVal) and t.domain is not None
                 and t.domain.origin.startswith(_ALL_EQUAL) and value(t.domain.size) is not None]
    if not constants:
        return joined
    largest = max(constants, key=lambda d: value(d.size))
    origin = INCLUDES + largest.origin[len(_ALL_EQUAL):]
    return joined.with_(domain=Domain(largest.size, origin=origin))


def padded(result, fill, pad, line: int):
    """`F.pad(ids, (0, n), value=c)` with some n > 0: c is among the values."""
    amounts = [value(p.dim) if isinstance(p, DimVal) else None for p in getattr(pad, "items", ())]
    if not amounts or None in amounts or not any(a > 0 for a in amounts):
        return result
    unknown = result.with_(domain=None)
    made = filled(unknown, fill, line)
    # the border holds c and the inside keeps the input's values: c is among them, not all of them
    return through_cat([made, unknown], unknown) if made is not unknown else result


def ones(func: str, made, line: int):
    """The result of ones / ones_like / new_ones: every value is 1, when its dtype is an integer one."""
    if func not in ("ones", "ones_like", "new_ones") or not isinstance(made, TensorVal) or made.dtype is None:
        return made
    return filled(made, DimVal(1), line)


def literal_ints(node):
    """Every int of a nested list/tuple literal; None when anything else is in it."""
    return literal_numbers(node, (int,))
