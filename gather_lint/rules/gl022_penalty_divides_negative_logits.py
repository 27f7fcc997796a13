"""GL022 penalty divides negative logits: a repetition penalty `score / penalty` raises the negative ones.

The repetition penalty of CTRL picks the logits of tokens already generated and divides them by the
penalty (> 1) to make those tokens less likely: ``picked = logits.gather(1, ids)`` then
``logits.scatter(1, ids, picked / penalty)``, ``logits[i, ids] /= penalty``, or for the whole tensor
``logits = logits / penalties`` (1 except at the seen tokens) and ``torch.where(seen, logits / p, logits)``.
Dividing lowers a
positive logit but moves a negative one toward 0, which raises it: ``-2.0 / 1.3 = -1.54``. Repeated
tokens with a negative logit become *more* likely, silently. Penalise by sign:
``torch.where(picked < 0, picked * penalty, picked / penalty)``. Reported when the scores can be
negative (``logits`` / ``scores``, not a softmax or exp output; a ``score`` name only where the code uses it
as a tensor, since ``score / penalty`` may divide two Python numbers), the divisor is a penalty (its name or
the function's says so; a length penalty is not one), the division writes back to the positions it
read, and nothing in the function tests the picked values' sign.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation
from ._example import Example

CODE = "GL022"
NAME = "penalty-divides-negative-logits"
SEVERITY = WARNING
FIX = None
RUNTIME = False  # the division is not a family call

EXAMPLES = [
    Example(
        title="repetition penalty gathered and scattered back",
        bad="""
import torch
logits = torch.tensor([[2.0, -1.0, 0.5, -3.0]])
used_tokens = torch.tensor([[0, 1]])
repetition_penalty = 2.0
picked = torch.gather(logits, 1, used_tokens)
out = torch.scatter(logits, 1, used_tokens, picked / repetition_penalty)
expected = torch.tensor([[1.0, -2.0, 0.5, -3.0]])
""",
        good="""
import torch
logits = torch.tensor([[2.0, -1.0, 0.5, -3.0]])
used_tokens = torch.tensor([[0, 1]])
repetition_penalty = 2.0
picked = torch.gather(logits, 1, used_tokens)
picked = torch.where(picked < 0, picked * repetition_penalty, picked / repetition_penalty)
out = torch.scatter(logits, 1, used_tokens, picked)
expected = torch.tensor([[1.0, -2.0, 0.5, -3.0]])
""",
    ),
    Example(
        title="penalty written in place by advanced indexing",
        bad="""
import torch
next_token_logits = torch.tensor([[2.0, -1.0, 0.5, -3.0]])
previous_tokens = torch.tensor([0, 3])
penalty = 1.5
next_token_logits[0, previous_tokens] /= penalty
out = next_token_logits
expected = torch.tensor([[2.0 / 1.5, -1.0, 0.5, -4.5]])
""",
        good="""
import torch
next_token_logits = torch.tensor([[2.0, -1.0, 0.5, -3.0]])
previous_tokens = torch.tensor([0, 3])
penalty = 1.5
picked = next_token_logits[0, previous_tokens]
next_token_logits[0, previous_tokens] = torch.where(picked < 0, picked * penalty, picked / penalty)
out = next_token_logits
expected = torch.tensor([[2.0 / 1.5, -1.0, 0.5, -4.5]])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # a division written back, found by gather_lint/static/sign_blind_penalty.py


def divides_picked(scores: str, picked: str, penalty: str, in_place: bool = False, back: bool = False) -> Violation:
    if in_place:
        written = f"`{picked} /= {penalty}`"
    elif back:
        written = f"`{picked} = {picked} / {penalty}`"
    else:
        written = f"`{picked} / {penalty}` scattered back into `{scores}`"
    fixed = f"torch.where({picked} < 0, {picked} * {penalty}, {picked} / {penalty})"
    return Violation(
        CODE, SEVERITY,
        f"{written} divides the penalised logits whatever their sign: a negative logit moves toward 0 and "
        f"rises (-2.0 / 1.3 = -1.54), so repeated tokens with a negative logit become more likely, silently; "
        f"penalise by sign: `{fixed}`",
        help=f"penalise by sign: `{fixed}`",
    )
