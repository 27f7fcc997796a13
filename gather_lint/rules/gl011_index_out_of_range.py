"""GL011 index out of range: index values outside the valid range of the indexed dim (runtime).

Valid values are ``[0, size)`` for gather/scatter/index_select/index_add_/index_copy_/embedding
(``[-size, size)`` for index_fill_). On CPU torch raises ``index 41 is out of bounds for dimension 1
with size 5``, after in-place ops have already written part of their output; on CUDA a device-side
assert kills the CUDA context, reported at a later, unrelated call. Padding ids (``-100``, ``-1``)
are the usual cause, or ids meant for another dim. Values are only known when the code runs, so
this rule belongs to the runtime mode.
"""
from typing import Optional

from ..contract import ERROR, Site, Violation
from ._example import Example

CODE = "GL011"
NAME = "index-out-of-range"
SEVERITY = ERROR
FIX = None
STATIC = False  # needs the index's values

EXAMPLES = [
    Example(
        title="-100 padding labels gathered without a mask",
        bad="""
import torch
log_probs = torch.randn(2, 4, 10).log_softmax(-1)  # [B, L, V]
labels = torch.tensor([[1, 2, 3, -100], [4, 5, -100, -100]])
out = log_probs.gather(-1, labels.unsqueeze(-1)).squeeze(-1)
mask = labels != -100
expected = torch.where(mask, log_probs.gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1), 0.0)
""",
        good="""
import torch
log_probs = torch.randn(2, 4, 10).log_softmax(-1)  # [B, L, V]
labels = torch.tensor([[1, 2, 3, -100], [4, 5, -100, -100]])
mask = labels != -100
out = torch.where(mask, log_probs.gather(-1, labels.masked_fill(~mask, 0).unsqueeze(-1)).squeeze(-1), 0.0)
expected = torch.where(mask, log_probs.gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1), 0.0)
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # shapes alone never decide it; see gather_lint.runtime.values


def message(op: str, low: int, high: int, size: int, dim: int, first: str, hint: str) -> str:
    return (f"index values span [{low}, {high}] but dim={dim} of the input has size {size} (valid: "
            f"[0, {size - 1}]){first}; torch raises 'index out of bounds' on CPU, a device-side assert on CUDA"
            f"{hint}; mask or clamp padding ids before {op}()")
