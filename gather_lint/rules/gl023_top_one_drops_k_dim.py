"""GL023 top-1 drops the k dim: one path picks with `max(dim)`, another with `topk(k, dim)`.

Routers and samplers often take a fast path for k == 1: ``scores.max(dim=-1)`` there,
``torch.topk(scores, k, dim=-1)`` otherwise. ``topk`` keeps the picked dim (size k, 1 for k == 1);
``max``, ``min``, ``argmax`` and ``argmin`` without ``keepdim=True`` drop it. The same result then has
rank r - 1 on one path and r on the other, so what follows it and was written for the k dim (a
normalisation over ``dim=-1``, a ``gather`` along it, a broadcast against ``[.., k]``) works along
another dim on the top-1 path: the weights of a top-1 router are normalised across all tokens,
silently (or torch raises, when the sizes do not fit). The top-1 pick is
``scores.max(dim=-1, keepdim=True)``. Reported when both picks read the same tensor along the same
dim and reach the same place: both returned, or both assigned to the same names in the two branches
of an ``if`` (or of a conditional expression). A sampler's greedy path has the same slip:
``torch.multinomial(probs, num_samples=1)`` gives ``[B, 1]`` where ``logits.argmax(dim=-1)`` gives
``[B]`` (``probs`` the softmax of ``logits`` over the last dim); squeeze the sample or keep the
argmax's dim.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation
from ._example import Example

CODE = "GL023"
NAME = "top-one-drops-k-dim"
SEVERITY = WARNING
FIX = None
RUNTIME = False  # max and topk are not family calls

EXAMPLES = [
    Example(
        title="top-1 fast path of a router",
        bad="""
import torch

def pick_experts(scores, k):
    if k == 1:
        return scores.max(dim=-1)
    return torch.topk(scores, k, dim=-1)

scores = torch.tensor([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6]])
weights, experts = pick_experts(scores, 1)
out = weights / weights.sum(dim=-1, keepdim=True)
expected = torch.ones(2, 1)
""",
        good="""
import torch

def pick_experts(scores, k):
    if k == 1:
        return scores.max(dim=-1, keepdim=True)
    return torch.topk(scores, k, dim=-1)

scores = torch.tensor([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6]])
weights, experts = pick_experts(scores, 1)
out = weights / weights.sum(dim=-1, keepdim=True)
expected = torch.ones(2, 1)
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # no family call: found by gather_lint/static/top_one_paths.py


def check_paths(pick: str, topk: str, line: int, dim: str, keeps: str, fixed: str) -> Violation:
    return Violation(
        CODE, SEVERITY,
        f"`{pick}` drops dim {dim}, which `{topk}` on the other path (line {line}) {keeps}: the result has one "
        f"dim fewer on this path, so what follows, written for one shape, works along another dim on the "
        f"other (a normalisation over dim {dim} runs across the rows; a [B] meeting a [B, 1] broadcasts to "
        f"[B, B]), silently (or raises); keep the picked dim: `{fixed}`",
        help=f"keep the picked dim: `{fixed}`",
    )
