"""GL029 reduction without keepdim: `x / x.sum(dim=1)` lines the sums up with the wrong dim of x.

A reduction over one dim drops that dim (unless ``keepdim=True``), and broadcasting lines shapes up from
the right. On ``probs`` ``[B, V]``, ``probs.sum(dim=1)`` is ``[B]``, and in ``probs / probs.sum(dim=1)`` its
B row sums meet the V dim: torch raises when ``B != V``, and when they are equal (a square batch) it
divides column j by row j's sum, silently. The same holds for ``mean``, ``norm``, ``std``, ``logsumexp``,
``amax`` and the values of ``max(dim)`` / ``min(dim)``, for subtraction (``x - x.max(dim=-1)[0]`` before an
``exp``), products and comparisons, and for any dim but the first of a tensor of any rank. Keep the
reduced dim: ``probs.sum(dim=1, keepdim=True)`` (or ``.unsqueeze(1)`` the result). A reduction over dim 0
lines up with the tensor it came from and is left alone. Reported when the reduction (through a clamp, a
cast or arithmetic with a number) meets, elementwise, a tensor of the shape it reduced, and the dims it
is lined up with are not the same size by the code (a size 1 broadcasts either way). Like every check of
the analysis, it runs in the functions that reach a gather/scatter-family call (and their callers).
"""
from typing import Optional

from ..contract import WARNING, Site, Violation
from ..dims import dim_text, must_differ
from ._example import Example

CODE = "GL029"
NAME = "reduction-without-keepdim"
SEVERITY = WARNING
FIX = None  # the keepdim belongs to the reduction, which may be far from where it is used: shown in the message
RUNTIME = False  # reductions and arithmetic are not family calls

EXAMPLES = [
    Example(
        title="renormalising the rows a top-p filter kept (a square batch: torch runs)",
        bad="""
import torch

def top_p_renormalise(probs, top_p):
    # probs: [B, V]
    sorted_probs, order = probs.sort(dim=1, descending=True)
    keep = sorted_probs.cumsum(1) - sorted_probs < top_p
    kept = torch.zeros_like(probs).scatter(1, order, sorted_probs * keep)
    return kept / kept.sum(dim=1)

probs = torch.softmax(torch.randn(4, 4) * 3, dim=1)
out = top_p_renormalise(probs, 0.8)
rows = []
for row in probs:
    s, o = row.sort(descending=True)
    kept = torch.zeros(4).scatter(0, o, s * (s.cumsum(0) - s < 0.8))
    rows.append(kept / kept.sum())
expected = torch.stack(rows)
""",
        good="""
import torch

def top_p_renormalise(probs, top_p):
    # probs: [B, V]
    sorted_probs, order = probs.sort(dim=1, descending=True)
    keep = sorted_probs.cumsum(1) - sorted_probs < top_p
    kept = torch.zeros_like(probs).scatter(1, order, sorted_probs * keep)
    return kept / kept.sum(dim=1, keepdim=True)

probs = torch.softmax(torch.randn(4, 4) * 3, dim=1)
out = top_p_renormalise(probs, 0.8)
rows = []
for row in probs:
    s, o = row.sort(descending=True)
    kept = torch.zeros(4).scatter(0, o, s * (s.cumsum(0) - s < 0.8))
    rows.append(kept / kept.sum())
expected = torch.stack(rows)
""",
    ),
    Example(
        title="a stable log-softmax over the vocab before picking the targets (every size equal: torch runs)",
        bad="""
import torch

def target_log_probs(logits, targets):
    # logits: [B, T, V], targets: [B, T]
    shifted = logits - logits.max(dim=-1)[0]
    log_probs = shifted - shifted.exp().sum(-1, keepdim=True).log()
    return log_probs.gather(2, targets.unsqueeze(-1)).squeeze(-1)

logits = torch.randn(3, 3, 3) * 4
targets = torch.randint(0, 3, (3, 3))
out = target_log_probs(logits, targets)
expected = torch.tensor([[torch.log_softmax(logits[b, t], 0)[targets[b, t]].item() for t in range(3)]
                         for b in range(3)])
""",
        good="""
import torch

def target_log_probs(logits, targets):
    # logits: [B, T, V], targets: [B, T]
    shifted = logits - logits.max(dim=-1, keepdim=True)[0]
    log_probs = shifted - shifted.exp().sum(-1, keepdim=True).log()
    return log_probs.gather(2, targets.unsqueeze(-1)).squeeze(-1)

logits = torch.randn(3, 3, 3) * 4
targets = torch.randint(0, 3, (3, 3))
out = target_log_probs(logits, targets)
expected = torch.tensor([[torch.log_softmax(logits[b, t], 0)[targets[b, t]].item() for t in range(3)]
                         for b in range(3)])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # no family call: found where the reduction is used, by gather_lint/static/dropped_dims.py


def check_meeting(reduced: str, reduced_shape, other: str, other_shape, call: str, axis: int, source, pair,
                  op: str, line: int, picked: bool = False) -> Violation:
    """`picked`: the dim was dropped by an integer subscript (`values[:, -1]`), not by a reduction call."""
    kept, met = dim_text(pair[0]), dim_text(pair[1])
    effect = f"torch raises ({kept} against {met})" if must_differ(*pair) else (
        f"torch raises when {kept} != {met}, and when they are equal it pairs entry j with slice j of the wrong "
        f"dim, silently")
    fix = (f"keep the dim: index it with a slice (`-1:` for `-1`) in `{call}` (line {line}), or `.unsqueeze({axis})` "
           f"its result") if picked else \
        f"keep the reduced dim: `keepdim=True` in `{call}` (line {line}), or `.unsqueeze({axis})` its result"
    return Violation(
        CODE, SEVERITY,
        f"`{call}` drops dim {axis} of its {source} input, so `{reduced}` is {reduced_shape}; where it meets "
        f"`{other}` {other_shape} ({op}), broadcasting lines shapes up from the right, and its {kept} entries "
        f"meet the {met} dim, not the dim they were computed for: {effect}; {fix}",
        help=fix,
    )
