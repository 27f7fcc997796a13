"""GL032 write changes nothing: a scatter or index_fill_ of the value a fresh buffer holds everywhere.

``torch.ones(B, C).scatter_(1, labels[:, None], 1.0)`` writes 1.0 into a tensor that holds 1.0 at every
position, and ``torch.zeros(n).index_fill_(0, ids, 0)`` writes 0 into zeros: the result equals the buffer,
whatever the index holds. A one-hot or label mask built that way marks nothing, silently (every class weighted
the same, a loss that ignores the labels). Reported when the buffer is made in the same function by
``zeros``/``ones`` (or their ``_like``/``new_`` forms) and written nowhere else before, and the value written is
the number it is filled with. A plain indexed store of the fill (``log_det[outside] = 0.0`` into zeros) is left
alone: code writes the value a region keeps on purpose, to say so.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation
from ._example import Example

CODE = "GL032"
NAME = "write-changes-nothing"
SEVERITY = WARNING
FIX = None  # whether the buffer or the written value is wrong is the author's call
RUNTIME = False  # seeing it needs the buffer's history (made by ones, written nowhere else)

EXAMPLES = [
    Example(
        title="a label mask scattered with ones into ones",
        bad="""
import torch
labels = torch.tensor([2, 0, 1])
label_mask = torch.ones(3, 4)
label_mask.scatter_(1, labels.unsqueeze(1), 1.0)
out = label_mask
expected = torch.tensor([[0.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]])
""",
        good="""
import torch
labels = torch.tensor([2, 0, 1])
label_mask = torch.zeros(3, 4)
label_mask.scatter_(1, labels.unsqueeze(1), 1.0)
out = label_mask
expected = torch.tensor([[0.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]])
""",
    ),
    Example(
        title="padding positions zeroed in a mask of zeros",
        bad="""
import torch
pad_positions = torch.tensor([3, 4])
keep = torch.zeros(5)
keep.index_fill_(0, pad_positions, 0)
out = keep
expected = torch.tensor([1.0, 1.0, 1.0, 0.0, 0.0])
""",
        good="""
import torch
pad_positions = torch.tensor([3, 4])
keep = torch.ones(5)
keep.index_fill_(0, pad_positions, 0)
out = keep
expected = torch.tensor([1.0, 1.0, 1.0, 0.0, 0.0])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # needs the buffer's history: found by gather_lint/static/unchanged_writes.py


def unchanged(write: str, buffer: str, fill: str, written: str) -> Violation:
    other = "zeros" if fill == "ones" else "ones"
    fix = f"start from `torch.{other}` (or write another value) if the indexed positions should stand out"
    return Violation(
        CODE, SEVERITY,
        f"`{write}` writes {written} into `{buffer}`, made by `{fill}` and holding {written} everywhere: the write "
        f"changes nothing, whatever the index holds, silently; {fix}",
        help=fix,
    )
