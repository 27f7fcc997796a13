"""GL002 dim out of range: ``dim`` is not a valid axis of the input.

Valid dims are ``[-max(rank, 1), max(rank, 1) - 1]``. torch raises
``IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 2)``.

The same holds for the ops that make or shape an index: ``topk``, ``sort``, ``argsort``, ``cumsum``,
``unsqueeze`` (one past the last dim), ``chunk``, ``split``, ``narrow``, ``select``, one-dim reductions and
``F.normalize`` (dim 1 by default). A ``squeeze()`` of every size-1 dim turns a batch of one ``[1, C]`` into
``[C]``, and the ``topk(k, dim=1)`` after it raises only for that batch.
"""
from typing import Optional

from ..contract import ERROR, Site, Violation, named
from ..dims import normalize_dim
from ._example import Example

CODE = "GL002"
NAME = "dim-out-of-range"
SEVERITY = ERROR
FIX = None

EXAMPLES = [
    Example(
        title="vocab dim counted from 1",
        bad="""
import torch
logits = torch.randn(4, 10)  # [B, V]
targets = torch.randint(10, (4, 1))
out = logits.gather(2, targets)
expected = torch.stack([logits[b, targets[b, 0]] for b in range(4)]).unsqueeze(1)
""",
        good="""
import torch
logits = torch.randn(4, 10)  # [B, V]
targets = torch.randint(10, (4, 1))
out = logits.gather(1, targets)
expected = torch.stack([logits[b, targets[b, 0]] for b in range(4)]).unsqueeze(1)
""",
    ),
    Example(
        title="scores of a batch squeezed to one row",
        bad="""
import torch
scores = torch.tensor([[0.1, 0.7, 0.2]])  # [B, C] with B = 1
labels = torch.tensor([[1]])  # [B, 1]
flat = scores.squeeze()
out = flat.gather(1, labels)
expected = torch.tensor([[0.7]])
""",
        good="""
import torch
scores = torch.tensor([[0.1, 0.7, 0.2]])  # [B, C] with B = 1
labels = torch.tensor([[1]])  # [B, 1]
out = scores.gather(1, labels)
expected = torch.tensor([[0.7]])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    shape = site.input.shape
    if site.dim is None or not site.dim_given or shape is None or shape.variadic:
        return None
    rank = len(shape.dims)
    if normalize_dim(site.dim, rank) is not None:
        return None
    width = max(rank, 1)
    return Violation(
        CODE, SEVERITY,
        f"dim={site.dim} is out of range for {rank}-d {named(site.input)}; torch raises 'Dimension out "
        f"of range (expected to be in range of [{-width}, {width - 1}], but got {site.dim})'; "
        f"use a dim in [{-width}, {width - 1}]",
    )


def check_normaliser_dim(call: str, function: str, input_text: str, shape, dim_text: str, written,
                         size_axis: Optional[int]) -> Violation:
    """A softmax / log_softmax / gumbel_softmax given a dim that is out of range, or that is a size of
    its input (`dim = logits.size(-1)`: the class count where the class dim was meant)."""
    rank = len(shape.dims)
    width = max(rank, 1)
    what = f"`{input_text}` {shape}" if input_text else f"its {rank}-d input {shape}"
    if size_axis is not None:
        known = isinstance(written, int)
        effect = (f"torch raises 'Dimension out of range (expected to be in range of [{-width}, {width - 1}], "
                  f"but got {written})'") if known else \
            (f"torch raises 'Dimension out of range' whenever {written} > {width - 1}, and for a smaller one "
             f"normalises over dim {written} instead")
        return Violation(CODE, SEVERITY, f"{call} passes `{dim_text}` = {written}, the size of dim {size_axis} of {what}, as the {function} "
                f"dim: a size is not a dim index; {effect}; pass dim={size_axis - rank} (the dim whose size it is)")
    return Violation(CODE, SEVERITY, f"{call} normalises {what} over dim={written}, which is out of range for a {rank}-d tensor; torch raises "
            f"'Dimension out of range (expected to be in range of [{-width}, {width - 1}], but got {written})'; "
            f"use a dim in [{-width}, {width - 1}]")


def check_op_dim(call: str, op: str, rank: int, shape, dim: int, added: int, defaulted: bool) -> Violation:
    """Any op that takes a dim (topk, sort, unsqueeze, a reduction, F.normalize) given one outside its
    input's rank; `added`: dims the op adds (unsqueeze takes one past the last)."""
    width = max(rank + added, 1)
    given = f"its default dim={dim}" if defaulted else f"dim={dim}"
    return Violation(
        CODE, SEVERITY,
        f"`{call}` uses {given} on a {rank}-d input {shape}; torch raises 'Dimension out of range (expected to be "
        f"in range of [{-width}, {width - 1}], but got {dim})'; use a dim in [{-width}, {width - 1}], or keep the "
        f"dim the code expects (a `squeeze()` of every size-1 dim drops a batch of one too)",
    )

