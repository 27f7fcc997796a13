"""GL028 one-hot width from the batch: `F.one_hot(labels)` without `num_classes` is as wide as the batch's largest label plus one.

``F.one_hot(labels)`` infers the number of classes from the values it is given: ``labels.max() + 1``. A
batch that lacks the last class (a small batch, a skewed dataset, pseudo-labels, a class-0-only batch)
gives fewer columns than the model has classes. Multiplied with, subtracted from or compared to a tensor
of the model's C classes (log-probabilities, smoothed targets, predictions), the one-hot then either
raises on the size mismatch, or, when every label is 0 and the width is 1, broadcasts its single column
over all C classes and gives a wrong loss silently. The mistake depends on the data: the code runs on
most batches and fails on some. Pass ``num_classes=C``. Reported when the one-hot (through casts and
arithmetic that keep its shape) meets, elementwise, a tensor whose last dim is a number of classes of its
own (a known size of 2 or more, or a name), and the labels are not known to hold the last class.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation
from ._example import Example

CODE = "GL028"
NAME = "one-hot-width-from-batch"
SEVERITY = WARNING
FIX = None  # the number of classes is the model's: the message names the tensor that holds it
RUNTIME = False  # one_hot's width and the tensor it meets are not one family call

EXAMPLES = [
    Example(
        title="cross-entropy with one-hot targets, on a batch of class 0 only",
        bad="""
import torch
import torch.nn.functional as F

def soft_cross_entropy(logits, labels):
    # logits: [B, C]  labels: [B]
    targets = F.one_hot(labels).float()
    return -(targets * F.log_softmax(logits, dim=-1)).sum(-1).mean()

logits = torch.tensor([[2.0, 0.5], [1.0, -1.0], [0.3, 0.2]])
labels = torch.tensor([0, 0, 0])
out = soft_cross_entropy(logits, labels)
expected = torch.stack([-F.log_softmax(logits[b], dim=-1)[labels[b]] for b in range(3)]).mean()
""",
        good="""
import torch
import torch.nn.functional as F

def soft_cross_entropy(logits, labels):
    # logits: [B, C]  labels: [B]
    targets = F.one_hot(labels, num_classes=logits.size(-1)).float()
    return -(targets * F.log_softmax(logits, dim=-1)).sum(-1).mean()

logits = torch.tensor([[2.0, 0.5], [1.0, -1.0], [0.3, 0.2]])
labels = torch.tensor([0, 0, 0])
out = soft_cross_entropy(logits, labels)
expected = torch.stack([-F.log_softmax(logits[b], dim=-1)[labels[b]] for b in range(3)]).mean()
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # needs where the one-hot is used: gather_lint/static/inferred_widths.py calls check_meeting


def check_meeting(labels: str, width: Optional[int], other_text: str, other_shape, line: Optional[int]) -> Violation:
    classes = other_shape.dims[-1]
    where = f" at line {line}" if line is not None else ""
    if width is not None:
        effect = (f"here the labels' largest is {width - 1}, so it is {width} wide against {classes}: "
                  + ("its one column broadcasts over every class, silently" if width == 1 else "torch raises on the sizes"))
    else:
        effect = (f"it is {classes} wide only in a batch that holds class {classes} - 1; without it torch raises on "
                  f"the sizes, or, when every label is 0, broadcasts the one column over every class, silently")
    fix = f"pass the number of classes: `F.one_hot({labels}, num_classes=...)` with the {classes} of `{other_text}`"
    return Violation(
        CODE, SEVERITY,
        f"`F.one_hot({labels})` has no num_classes, so it is `{labels}.max() + 1` wide, and it meets `{other_text}` "
        f"{other_shape}{where}, whose last dim counts {classes} classes: {effect}; {fix}",
        help=fix,
    )
