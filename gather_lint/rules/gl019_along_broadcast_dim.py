"""GL019 along a broadcast dim: gather/scatter along the dim that an unsqueeze + expand/repeat made.

``feats.unsqueeze(-1).repeat(1, 1, 1, N)`` is constant along its last dim, so
``torch.gather(all_feats, -1, knn_idx)`` returns the same value whatever the index holds: every
"neighbour" is the point itself, silently. The index side is the same mistake:
``ids.unsqueeze(-1).expand_as(src)`` is constant along dim 1, and gathering or scattering with it
along dim 1 reads or writes one position per row; its values run along dim 0 (torch raises when
the other sizes do not fit, and is silently wrong when they do). The repeat or expand belongs on
the other dim, or the op on the dim the values run along.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation
from ._example import Example

CODE = "GL019"
NAME = "along-broadcast-dim"
SEVERITY = WARNING
FIX = None  # which dim was meant (for the repeat or for the op) the code does not say
RUNTIME = False  # an expanded tensor looks like any other at the call (a repeat copies)

EXAMPLES = [
    Example(
        title="neighbour features repeated along the gathered dim",
        bad="""
import torch
feats = torch.randn(2, 3, 5)  # [B, C, N]
knn = torch.randint(0, 5, (2, 5, 2))  # [B, N, K]
idx = knn.unsqueeze(1).repeat(1, 3, 1, 1)  # [B, C, N, K]
out = torch.gather(feats.unsqueeze(-1).repeat(1, 1, 1, 5), -1, idx)
expected = torch.stack([feats[b][:, knn[b]] for b in range(2)])
""",
        good="""
import torch
feats = torch.randn(2, 3, 5)  # [B, C, N]
knn = torch.randint(0, 5, (2, 5, 2))  # [B, N, K]
idx = knn.unsqueeze(1).repeat(1, 3, 1, 1)  # [B, C, N, K]
out = torch.gather(feats.unsqueeze(2).repeat(1, 1, 5, 1), -1, idx)
expected = torch.stack([feats[b][:, knn[b]] for b in range(2)])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # needs the argument's history: gather_lint/static/broadcast_axis.py calls check_broadcast_axis


def check_broadcast_axis(role: str, text: str, made_by: str, axis: int, op: str, index_text: str) -> Violation:
    if role == "input":
        fix = "repeat or expand along another dim (the one the index does not run over)"
        effect = f"so {op}() along dim {axis} returns that one slice whatever `{index_text}` holds (silently); {fix}"
    else:
        fix = f"use {op}() along that dim, or expand the index along the other one"
        effect = (f"so {op}() along dim {axis} uses one position per slice along that dim, while its values "
                  f"run along another dim; {fix}")
    return Violation(
        CODE, SEVERITY,
        f"{role} `{text}`{'' if made_by == text else f' is `{made_by}`'}, the same along dim {axis} (a size-1 dim "
        f"spread by a broadcast), {effect}",
        help=fix,
    )
