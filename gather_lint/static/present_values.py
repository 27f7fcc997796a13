"""Values the range checks know are among a tensor's values, forgotten when the code masks or overwrites
some of them.

Scaled fractions, shifted draws, running counts, flattened coordinates and written ids say which
largest value the tensor holds (its range reaches the size it was made for). `x[x > m] = m`,
`x[mask] = 0`, `x.masked_fill(mask, 0)` replace some values: the largest may be among them, so the
claim no longer holds (a clamp says its own bound: value_ranges.clamped).
"""
from __future__ import annotations

from dataclasses import replace

from .values import TensorVal

# how those modules begin or mark their origins
_STARTS = ("integers up to ", "running counts of ", "coordinates of ", "values written at line ")
_MARKS = (", shifted by ",)
_MASKING = ("masked_fill", "masked_fill_", "index_fill", "index_fill_", "masked_scatter", "masked_scatter_",
            "index_put", "index_put_", "scatter", "scatter_", "fill_diagonal_")


def forgotten(t):
    """`t` without a claim of what it holds, when it has one."""
    if not isinstance(t, TensorVal) or t.domain is None or t.domain.size is None:
        return t
    origin = t.domain.origin
    if origin.startswith(_STARTS) or any(mark in origin for mark in _MARKS):
        return t.with_(domain=replace(t.domain, size=None, origin=""))
    return t


def after_method(method: str, result):
    return forgotten(result) if method in _MASKING else result
