"""GL021 top-k keeps one extra: sorted positions compared with `> k` mark the tokens to remove.

Top-k filters often sort the scores, mark the positions past the k-th for removal and scatter the
mask back: ``remove = torch.arange(V).expand_as(logits) > top_k``. Positions count from 0, so
``> top_k`` leaves positions ``0 .. top_k`` in place: ``top_k + 1`` tokens survive (``top_k=1``,
meant as greedy, keeps two), silently. The removal mask is ``>= top_k``. Reported when the
positions come from ``arange``, the bound is a top-k count (``top_k``, ``topk``) and the
function removes what the mask marks (``masked_fill`` with a very negative value).

Top-p filters written for one row of scores have the same kind of slip when run on a batch: the
guard that keeps the most probable token, ``remove[0] = False`` (and the shift right before it,
``remove[1:] = remove[:-1].clone()``), indexes the first dim, which on [B, V] scores holds the rows.
The first sequence then keeps every token and the others lose the guard (a confident row has every
token removed: NaN probabilities), silently. The guard is ``remove[..., 0] = False``. Reported when
the removal mask is a comparison of a cumulative sum over its last dim and its rank is known to be 2
or more.
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


def check_batched_guard(statement: str, mask: str, shape, form: str, line: int, fixed: str) -> Violation:
    """A top-p filter's keep-first guard (or its shift right) indexing rows of a batched removal mask."""
    what = "clears row 0 of" if form == "first" else "shifts the rows of"
    return Violation(
        CODE, SEVERITY,
        f"`{statement}` {what} the top-p removal mask `{mask}` {shape} (made at line {line} from a cumulative "
        f"sum over its last dim), not its sorted positions: the first sequence keeps every token and the "
        f"others are filtered without the most probable one kept (all of a confident row's tokens removed, "
        f"NaN after the softmax), silently; index the last dim: `{fixed}`",
        help=f"index the last dim: `{fixed}`",
    )
