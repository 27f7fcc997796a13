"""GL010 wrapped indices: take_along_dim silently wraps out-of-range index values.

``torch.take_along_dim(x, idx, dim=d)`` computes ``idx % x.size(d)`` before gathering, so ``-100``
padding labels, ``-1`` sentinels and ids from a larger vocabulary never raise: they silently read
another position. gather() on the same values would raise. Advanced indexing `table[ids]` does the same
with negative values: `-1` reads the last row. Statically, reported when the code certainly put a
negative padding value into the index (signed labels, `torch.where(y > 0, 1, -1)`, count too), or values past the dim (an id written into the ids, ids made
for a larger vocabulary) reach take_along_dim; at run time, for any out-of-range value.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation, gather_axis, named, padding_source
from ..dims import dim_text, must_equal, must_exceed, value
from ..ops import TAKE_ALONG
from ._example import Example

CODE = "GL010"
NAME = "wrapped-indices"
SEVERITY = WARNING
FIX = None

EXAMPLES = [
    Example(
        title="-100 padding labels through take_along_dim",
        bad="""
import torch
log_probs = torch.randn(2, 4, 10).log_softmax(-1)  # [B, L, V]
labels = torch.tensor([[1, 2, 3, -100], [4, 5, -100, -100]])
out = torch.take_along_dim(log_probs, labels.unsqueeze(-1), dim=-1).squeeze(-1)
expected = torch.where(labels != -100, log_probs.gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1), 0.0)
""",
        good="""
import torch
log_probs = torch.randn(2, 4, 10).log_softmax(-1)  # [B, L, V]
labels = torch.tensor([[1, 2, 3, -100], [4, 5, -100, -100]])
mask = labels != -100
out = torch.take_along_dim(log_probs, labels.masked_fill(~mask, 0).unsqueeze(-1), dim=-1).squeeze(-1) * mask
expected = torch.where(mask, log_probs.gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1), 0.0)
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    """Statically: a negative padding value the code put in reaches take_along_dim(dim=...)."""
    domain = site.index.domain
    if site.op.family != TAKE_ALONG or not site.dim_given or domain is None:
        return None
    if domain.sentinel is None:
        return _past_the_dim(site)
    where = padding_source(domain)
    return Violation(
        CODE, SEVERITY,
        f"index {named(site.index)} can hold the padding value {domain.sentinel}{where}; take_along_dim() wraps it "
        f"modulo the dim's size and silently reads a real entry instead of raising; replace padding first, e.g. "
        f"`.masked_fill(mask, 0)`, and mask the result",
    )


def _past_the_dim(site: Site) -> Optional[Violation]:
    """Values made for (or written as) more than the dim holds: take_along_dim wraps them silently."""
    domain, axis = site.index.domain, gather_axis(site)
    if axis is None or domain.size is None or domain.category:
        return None
    here = site.input.shape.dims[axis]
    if not must_exceed(domain.size, here) or any(must_equal(d, domain.size) for d in site.input.shape.dims):
        return None
    size = value(here)
    wrapped = f"value {size} reads position 0, {size + 1} position 1" if size is not None else "they read"
    return Violation(
        CODE, SEVERITY,
        f"index values are {domain.origin} but dim={site.dim} of {named(site.input)} has size {dim_text(here)}; "
        f"take_along_dim() wraps the values past it modulo {dim_text(here)} ({wrapped}, and so on) and silently "
        f"reads the wrong entry where gather() would raise; make the values fit the dim, or mask the ids past it",
    )


def message(low: int, high: int, size: int, dim: int, value: int, coord, hint: str, which: str = "first") -> str:
    return (f"index values span [{low}, {high}] but dim={dim} has size {size}; torch silently wraps them modulo "
            f"{size} ({which} bad value {value} at index{list(coord)}) instead of raising{hint}; mask padding ids first")


def subscript_message(text: str, index_text: str, domain) -> Violation:
    """`table[ids]` with -1 among ids: advanced indexing counts from the end, as take_along_dim wraps."""
    where = padding_source(domain)
    return Violation(
        CODE, SEVERITY,
        f"`{index_text}` can hold the padding value {domain.sentinel}{where}, and `{text}[{index_text}]` reads "
        f"it as a position counted from the end: {domain.sentinel} silently reads the last entry of `{text}` "
        f"instead of raising; replace padding first, e.g. `{index_text}.clamp(min=0)`, and mask the result",
    )
