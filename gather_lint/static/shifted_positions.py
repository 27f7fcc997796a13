"""Positions shifted by a known offset into blocks of a wider dim: `idx + k * block`; draws shifted
by any offset (`torch.randint(0, n, size) + 1` reaches n).

Top-k positions over a dim of 25 (a 5 x 5 window) shifted by `k * 25` for each of several channels
address the channel-major rows of an unfolded input (`F.unfold` gives [N, C * 25, L]): the last
block's largest position is (blocks - 1) * 25 + 24, past C * 25 rows when more blocks are made than
the input has channels. Known sizes only: a shift by a known int moves the range up by that much,
and a concatenation of shifted pieces holds the largest piece's values.
"""
from __future__ import annotations

import ast
from dataclasses import replace

from ..contract import Domain
from ..dims import value
from .values import DimVal, TensorVal

_SHIFTED = ", shifted by "


def through_arith(node: ast.BinOp, left, right, result):
    """`idx + k * block` / `k * block + idx` with idx positions within one block of a known size."""
    if not isinstance(node.op, ast.Add) or not isinstance(result, TensorVal):
        return result
    positions, offset = (left, right) if isinstance(left, TensorVal) else (right, left)
    size = _known_range(positions)
    shift = value(offset.dim) if isinstance(offset, DimVal) and offset.dim is not None else None
    if size is None or shift is None or shift <= 0 or (shift % size and not _drawn(positions)):
        return result  # whole blocks, or random draws: `argmax + 1` is a next position the data decides
    origin = f"{positions.domain.origin}{_SHIFTED}{shift} (up to {size - 1 + shift})"
    return result.with_(domain=replace(positions.domain, size=size + shift, origin=origin))


def through_cat(items, joined):
    """`torch.cat([idx, idx + 25, idx + 50])`: the largest piece's values are among the joined ones."""
    if not isinstance(joined, TensorVal) or joined.domain is not None or not items:
        return joined
    sizes = [_known_range(t) for t in items]
    if None in sizes or not any(_SHIFTED in t.domain.origin for t in items):
        return joined
    largest = items[sizes.index(max(sizes))]
    return joined.with_(domain=Domain(max(sizes), origin=f"{largest.domain.origin}, among the pieces joined",
                                      repeats=any(t.domain.repeats for t in items)))


def _known_range(t):
    """The int size of a positions range the values are made within (not ids, not padded), else None."""
    if not isinstance(t, TensorVal) or t.domain is None or t.domain.category or t.domain.sentinel is not None \
            or t.dtype in ("bool", "float16", "bfloat16", "float32", "float64"):
        return None
    size = value(t.domain.size) if t.domain.size is not None else None
    return size if isinstance(size, int) and size > 0 else None


def _drawn(t: TensorVal) -> bool:
    """Values drawn by randint: every one in the range comes up, the largest with them (`randint(0, n) + 1`
    reaches n)."""
    return t.domain.origin.startswith("randint() values")
