"""Integer ranges sent through a low-precision float: the largest value can round up past the table.

bfloat16 keeps 8 significant bits and float16 11: above 256 (bfloat16) or 2048 (float16) only every
2nd, 4th, 8th ... integer exists, and a value rounds to the nearest one (ties to even). Timesteps
drawn in [0, 1000) and stored as bfloat16 reach 1000 (999 rounds up), one past a 1000-entry
schedule: `alphas_cumprod[t.long()]` raises 'index 1000 is out of bounds'. The largest value is
the range's own top (`randint(0, N)` reaches N - 1), so the rounded top is certain, not a guess.
"""
from __future__ import annotations

import struct
from typing import Optional

from ..contract import ERROR, Violation
from ..dims import value


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
    """The largest value of `[0, size)` after the low-precision round trip the domain records, when it
    lands at or past `size`; else None."""
    if domain is None or domain.rounded is None or domain.category or domain.sentinel is not None:
        return None
    size = value(domain.size)
    if size is None or size <= domain.rounded[1]:
        return None  # every value below the exact limit survives the trip
    top = rounded(size - 1, domain.rounded[0])
    return top if top is not None and top >= size else None


def past(domain, here) -> bool:
    """The rounded top reaches past a dim of size `here` (known)."""
    top = top_after_rounding(domain)
    rows = value(here)
    return top is not None and rows is not None and top >= rows


def message(index_text: str, domain, where: str, rows: int, axis: Optional[int] = None) -> Violation:
    """`index_text` holds the rounded range of `domain` and indexes `where`, which has `rows` entries:
    dim `axis` of a tensor (advanced indexing), or an embedding table when `axis` is None."""
    dtype, _, how = domain.rounded
    top = top_after_rounding(domain)
    size = value(domain.size)
    raised = f"index {top} is out of bounds for dimension {axis} with size {rows}" if axis is not None \
        else "index out of range in self"
    return Violation(
        "GL011", ERROR,
        f"`{index_text}` holds {domain.origin} passed through {dtype} ({how}): {size - 1} is not a {dtype} "
        f"number and rounds to {top}, but {where} has {rows} entries (valid: 0 to {rows - 1}); torch raises "
        f"'{raised}' on CPU, a device-side assert on CUDA; keep the ids in an integer tensor (float32 holds "
        f"integers exactly up to 2**24) and cast only the copy the model reads",
    )
