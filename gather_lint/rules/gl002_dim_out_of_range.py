"""GL002 dim out of range: ``dim`` is not a valid axis of the input.

Valid dims are ``[-max(rank, 1), max(rank, 1) - 1]``. torch raises
``IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 2)``.
"""
from typing import Optional

from ..contract import ERROR, Site, Violation, named
from ..dims import normalize_dim
from ._example import Example

CODE = "GL002"
NAME = "dim-out-of-range"
SEVERITY = ERROR
FIX = None

EXAMPLES = [
    Example(
        title="vocab dim counted from 1",
        bad="""
import torch
logits = torch.randn(4, 10)  # [B, V]
targets = torch.randint(10, (4, 1))
out = logits.gather(2, targets)
expected = torch.stack([logits[b, targets[b, 0]] for b in range(4)]).unsqueeze(1)
""",
        good="""
import torch
logits = torch.randn(4, 10)  # [B, V]
targets = torch.randint(10, (4, 1))
out = logits.gather(1, targets)
expected = torch.stack([logits[b, targets[b, 0]] for b in range(4)]).unsqueeze(1)
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    shape = site.input.shape
    if site.dim is None or not site.dim_given or shape is None or shape.variadic:
        return None
    rank = len(shape.dims)
    if normalize_dim(site.dim, rank) is not None:
        return None
    width = max(rank, 1)
    return Violation(
        CODE, SEVERITY,
        f"dim={site.dim} is out of range for {rank}-d {named(site.input)}; torch raises 'Dimension out "
        f"of range (expected to be in range of [{-width}, {width - 1}], but got {site.dim})'; "
        f"use a dim in [{-width}, {width - 1}]",
    )
