"""GL018 normalised along another dim: class labels gathered from a softmax taken over a different dim.

``F.log_softmax(scores, dim=0).gather(1, target.unsqueeze(1))`` on ``[B, C]`` scores picks each row's
label from values normalised over the batch, not over the classes: torch runs it and the
"log-probabilities" of every row depend on the other rows (the loss is silently wrong). The same
happens with ``softmax``/``log_softmax`` over the time dim of ``[B, T, V]`` logits, and with an
implicit dim (``F.log_softmax(x)`` picks dim 0 for 3-d input). The index must hold class labels
(targets, labels, actions) so that the gathered dim is the class dim; picking whole distributions
(a query row of attention probabilities) is left alone.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation
from ._example import Example

CODE = "GL018"
NAME = "normalised-other-dim"
SEVERITY = WARNING
FIX = None  # the softmax is elsewhere; its dim is the fix, shown in the message
RUNTIME = True  # log_softmax results carry their dim at run time (gather_lint/runtime/normalised_checks.py)

EXAMPLES = [
    Example(
        title="log-softmax over the batch before picking each row's label",
        bad="""
import torch
import torch.nn.functional as F
scores = torch.randn(4, 5)  # [B, C]
target = torch.tensor([1, 0, 4, 2])
out = F.log_softmax(scores, dim=0).gather(1, target.unsqueeze(1)).squeeze(1)
expected = torch.stack([F.log_softmax(scores[b], dim=0)[target[b]] for b in range(4)])
""",
        good="""
import torch
import torch.nn.functional as F
scores = torch.randn(4, 5)  # [B, C]
target = torch.tensor([1, 0, 4, 2])
out = F.log_softmax(scores, dim=1).gather(1, target.unsqueeze(1)).squeeze(1)
expected = torch.stack([F.log_softmax(scores[b], dim=0)[target[b]] for b in range(4)])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # needs the input's history: gather_lint/static/normalised_axis.py calls check_normalised


def check_normalised(input_text: str, function: str, normalised: int, gathered: int, index_text: str,
                     implicit: bool) -> Violation:
    how = f"{function}() without a dim (torch picks dim {normalised})" if implicit else f"{function}(dim={normalised})"
    return Violation(
        CODE, SEVERITY,
        f"`{index_text}` picks labels along dim {gathered} of `{input_text}`, but {how} normalised it along dim "
        f"{normalised}: each picked value is a share of dim {normalised}, not of the classes, so the result is "
        f"silently wrong; take the {function} over dim {gathered}",
        help=f"take the {function} over dim {gathered}",
    )
