"""GL020 one-hot pick summed over the batch: a per-row pick by one-hot mask, reduced with no dim.

``(q_values * F.one_hot(actions, A)).sum(dim=1)`` picks each row's entry at its action, the
gather-free spelling of ``q_values.gather(1, actions.unsqueeze(1)).squeeze(1)``. Summed with no dim
(``torch.sum(q_values * one_hot)``, as TF's ``reduce_sum`` without an axis is often ported), it
adds every row's pick into one number. Combined with a per-row tensor (``target_q - q`` with
``target_q`` of shape ``[B]``), that total is broadcast to every row, silently: each row's error is
measured against the sum of the whole batch. Sum over the class dim only (``dim=1``), or gather.
Reported when the summed tensor is a product with a one-hot (``F.one_hot``, ``torch.eye(n)[ids]``,
through casts) and the 0-d sum meets a tensor whose first dim is the one-hot's batch dim; a one-hot
sum used as a loss total (``-(logp * one_hot).sum() / B``) is left alone.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation
from ._example import Example

CODE = "GL020"
NAME = "one-hot-pick-summed-over-batch"
SEVERITY = WARNING
FIX = None  # the sum is elsewhere; the dim to sum over is shown in the message
RUNTIME = False  # a sum and a subtraction are not family calls

EXAMPLES = [
    Example(
        title="Q(s, a) picked with a one-hot action mask",
        bad="""
import torch
import torch.nn.functional as F
q_values = torch.randn(8, 3)  # [B, A]
actions = torch.randint(0, 3, (8,))
target_q = torch.randn(8)  # [B]
out = target_q - torch.sum(q_values * F.one_hot(actions, 3).float())
expected = torch.stack([target_q[b] - q_values[b, actions[b]] for b in range(8)])
""",
        good="""
import torch
import torch.nn.functional as F
q_values = torch.randn(8, 3)  # [B, A]
actions = torch.randint(0, 3, (8,))
target_q = torch.randn(8)  # [B]
out = target_q - torch.sum(q_values * F.one_hot(actions, 3).float(), dim=1)
expected = torch.stack([target_q[b] - q_values[b, actions[b]] for b in range(8)])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # needs the sum's history: gather_lint/static/one_hot_pick.py calls check_summed


def check_summed(sum_text: str, product_text: str, shape, other_text: str, other_shape, line: int,
                 fix: str) -> Violation:
    return Violation(
        CODE, SEVERITY,
        f"`{sum_text}` sums the one-hot picks of `{product_text}`, one per row of {shape}, into one number: "
        f"with no dim it reduces the batch too, and `{other_text}` {other_shape} at line {line} gets that total in "
        f"every row, silently; sum over the classes only: `{fix}`",
        help=f"sum over the classes only: `{fix}`",
    )
