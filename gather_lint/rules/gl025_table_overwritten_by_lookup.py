"""GL025 table overwritten by its lookup: `self.w = self.w.gather(0, labels)` keeps this batch's picks.

A module that holds a per-class table built in ``__init__`` (class weights of a focal or weighted
loss, a per-class margin, prior or temperature) and looks it up per sample with this call's labels
must keep the picks in a local: ``alpha = self.alpha.gather(0, labels)``. Assigning them back,
``self.alpha = self.alpha.gather(0, labels)`` (``index_select``, ``torch.gather``, ``self.alpha[labels]``),
replaces the per-class table with one entry per sample of the current batch. The first call is
right; every later call looks classes up in the previous batch's sample weights, silently, and
raises an out-of-range index only when a batch is smaller than a class id. Reported in ``forward``,
``__call__`` or another method that returns a value (one run per batch) when the attribute is a
tensor ``__init__`` builds, no other method assigns it, and the index comes from a class-label
argument of the method (``labels``, ``targets``, ``target``, ``y``, and names derived from them).
"""
from typing import Optional

from ..contract import WARNING, Site, Violation
from ._example import Example

CODE = "GL025"
NAME = "table-overwritten-by-lookup"
SEVERITY = WARNING
FIX = None  # the later reads of the attribute in the method decide which name they should use
RUNTIME = False  # the call itself is right; the harm is in storing its result on the module

EXAMPLES = [
    Example(
        title="class weights of a weighted loss stored back per sample",
        bad="""
import torch
import torch.nn as nn


class WeightedNLL(nn.Module):
    def __init__(self, class_weights):
        super().__init__()
        self.weight = torch.tensor(class_weights)

    def forward(self, log_probs, targets):
        self.weight = self.weight.gather(0, targets)
        picked = log_probs.gather(1, targets.unsqueeze(1)).squeeze(1)
        return -(self.weight * picked).mean()


criterion = WeightedNLL([0.2, 0.3, 0.5])
first = criterion(torch.log_softmax(torch.randn(4, 3), 1), torch.tensor([1, 1, 0, 2]))
log_probs = torch.log_softmax(torch.randn(4, 3), 1)
targets = torch.tensor([2, 2, 0, 1])
out = criterion(log_probs, targets)
expected = -(torch.tensor([0.5, 0.5, 0.2, 0.3]) * log_probs[torch.arange(4), targets]).mean()
""",
        good="""
import torch
import torch.nn as nn


class WeightedNLL(nn.Module):
    def __init__(self, class_weights):
        super().__init__()
        self.weight = torch.tensor(class_weights)

    def forward(self, log_probs, targets):
        weight = self.weight.gather(0, targets)
        picked = log_probs.gather(1, targets.unsqueeze(1)).squeeze(1)
        return -(weight * picked).mean()


criterion = WeightedNLL([0.2, 0.3, 0.5])
first = criterion(torch.log_softmax(torch.randn(4, 3), 1), torch.tensor([1, 1, 0, 2]))
log_probs = torch.log_softmax(torch.randn(4, 3), 1)
targets = torch.tensor([2, 2, 0, 1])
out = criterion(log_probs, targets)
expected = -(torch.tensor([0.5, 0.5, 0.2, 0.3]) * log_probs[torch.arange(4), targets]).mean()
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # an assignment to the looked-up attribute, found by gather_lint/static/overwritten_tables.py


def overwritten(attribute: str, lookup: str, labels: str) -> Violation:
    local = attribute.split(".", 1)[-1]
    fix = f"keep the picks in a local: `{local} = {lookup}`, and use `{local}` below"
    return Violation(
        CODE, SEVERITY,
        f"`{attribute} = {lookup}` replaces the table `{attribute}` built in __init__ with this call's picks "
        f"for `{labels}` (one per sample): every later call looks its classes up in the previous batch's "
        f"values; {fix}",
        help=fix,
    )
