"""GL021 top-k keeps one extra: sorted positions compared with `> k` mark the tokens to remove.

Top-k filters often sort the scores, mark the positions past the k-th for removal and scatter the
mask back: ``remove = torch.arange(V).expand_as(logits) > top_k``. Positions count from 0, so
``> top_k`` leaves positions ``0 .. top_k`` in place: ``top_k + 1`` tokens survive (``top_k=1``,
meant as greedy, keeps two), silently. The removal mask is ``>= top_k``. Reported when the
positions come from ``arange``, the bound is a top-k count (``top_k``, ``topk``) and the
function removes what the mask marks (``masked_fill`` with a very negative value).
"""
from typing import Optional

from ..contract import WARNING, Site, Violation
from ._example import Example

CODE = "GL021"
NAME = "top-k-keeps-one-extra"
SEVERITY = WARNING
FIX = None
RUNTIME = False  # a comparison is not a family call

EXAMPLES = [
    Example(
        title="top-k filter over sorted positions",
        bad="""
import torch
logits = torch.tensor([[0.1, 2.0, 0.3, 1.5, -1.0]])
top_k = 1
sorted_logits, sorted_idx = torch.sort(logits, descending=True, dim=-1)
positions = torch.arange(logits.size(-1)).expand_as(logits)
remove_sorted = positions > top_k
remove = remove_sorted.scatter(-1, sorted_idx, remove_sorted)
out = logits.masked_fill(remove, float("-inf"))
expected = torch.tensor([[float("-inf"), 2.0, float("-inf"), float("-inf"), float("-inf")]])
""",
        good="""
import torch
logits = torch.tensor([[0.1, 2.0, 0.3, 1.5, -1.0]])
top_k = 1
sorted_logits, sorted_idx = torch.sort(logits, descending=True, dim=-1)
positions = torch.arange(logits.size(-1)).expand_as(logits)
remove_sorted = positions >= top_k
remove = remove_sorted.scatter(-1, sorted_idx, remove_sorted)
out = logits.masked_fill(remove, float("-inf"))
expected = torch.tensor([[float("-inf"), 2.0, float("-inf"), float("-inf"), float("-inf")]])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # a comparison, found by gather_lint/static/top_k_filter.py


def check_positions(comparison: str, positions: str, bound: str, removal: str, line: int, fixed: str) -> Violation:
    return Violation(
        CODE, SEVERITY,
        f"`{comparison}` marks sorted positions after `{bound}` for removal (`{removal}` at line {line}), but "
        f"positions count from 0: positions 0 .. {bound} stay, so {bound} + 1 tokens are kept (two for "
        f"{bound}=1), silently; remove from position {bound} on: `{fixed}`",
        help=f"remove from position {bound} on: `{fixed}`",
    )
