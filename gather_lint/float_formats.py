"""Integers in the low-precision float formats: which number a value becomes in bfloat16 / float16.

bfloat16 keeps 8 significant bits and float16 11: above 256 (bfloat16) or 2048 (float16) only every
2nd, 4th, 8th ... integer exists, and a value rounds to the nearest one (ties to even). Pure Python,
shared by the static analysis and the rules, so neither needs torch.
"""
from __future__ import annotations

import struct
from typing import Optional

from .dims import value


def rounded(number: int, dtype: str) -> Optional[int]:
    """`torch.tensor(number).to(dtype).item()` for an integer, computed without torch."""
    if dtype == "float16":
        try:
            return int(struct.unpack("<e", struct.pack("<e", float(number)))[0])
        except (OverflowError, struct.error):
            return None  # past 65504: inf
    if dtype == "bfloat16" and 0 <= number < 2 ** 24:  # exact in float32: round its bits to the top 16
        bits = struct.unpack("<I", struct.pack("<f", float(number)))[0]
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        return int(struct.unpack("<f", struct.pack("<I", bits))[0])
    return None


def top_after_rounding(domain) -> Optional[int]:
    """The largest value of a domain's `[0, size)` after the low-precision round trip it records, when
    that lands at or past `size` (`randint(0, 1000)` through bfloat16 reaches 1000); else None. The top
    is the range's own (`randint(0, N)` reaches N - 1), so the rounded top is certain, not a guess."""
    if domain is None or domain.rounded is None or domain.category or domain.sentinel is not None:
        return None
    size = value(domain.size)
    if size is None or size <= domain.rounded[1]:
        return None  # every value below the exact limit survives the trip
    top = rounded(size - 1, domain.rounded[0])
    return top if top is not None and top >= size else None
