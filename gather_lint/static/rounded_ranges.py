"""Integer ranges sent through a low-precision float, at lookups: the top can round up past the table.

Timesteps drawn in [0, 1000) and stored as bfloat16 reach 1000 (999 rounds up, float_formats.py),
one past a 1000-entry schedule: `alphas_cumprod[t.long()]` and `nn.Embedding(1000, d)` raise. Gather
sites are the contract's (GL011).
"""
from __future__ import annotations

from typing import Optional

from ..contract import ERROR, Violation
from ..dims import value
from ..float_formats import top_after_rounding


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
