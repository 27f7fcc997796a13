"""GL037 view size mismatch: `view`/`reshape` asks for a shape whose element count is not the tensor's.

``x.view(*sizes)`` and ``x.reshape(*sizes)`` keep every element and only regroup them: the sizes must multiply to
``x.numel()`` (with one ``-1`` standing for whatever divides the rest). Sizes written for one layout and applied to
another (a channels-first ``[B, C, N]`` cloud read as ``[B, N, C]``, a flat index over the whole batch read per
sample, a hard-coded count of heads or stages) raise ``RuntimeError: shape '[2, 5, 1, 1]' is invalid for input of
size 20``. Derive the sizes from the tensor itself (``x.shape``, one ``-1``) or fix the layout it arrives in.
Reported when the input's shape and every asked size are numbers the analysis knows.
"""
from typing import Optional

from ..contract import ERROR, Site, Violation
from ._example import Example

CODE = "GL037"
NAME = "view-size-mismatch"
SEVERITY = ERROR
FIX = None  # which size is wrong is the author's call
RUNTIME = False  # torch's own error names the shape and the element count

EXAMPLES = [
    Example(
        title="per-head scores regrouped with the wrong head count",
        bad="""
import torch

scores = torch.rand(2, 5, 12)  # [B, T, H * D], 4 heads of 3
per_head = scores.view(2, 5, 5, -1)
first = torch.zeros(2, 5, 5, 1, dtype=torch.long)
out = per_head.gather(-1, first).squeeze(-1)
expected = torch.stack([scores[..., h * 3] for h in range(4)], dim=-1)
""",
        good="""
import torch

scores = torch.rand(2, 5, 12)  # [B, T, H * D], 4 heads of 3
per_head = scores.view(2, 5, 4, -1)
first = torch.zeros(2, 5, 4, 1, dtype=torch.long)
out = per_head.gather(-1, first).squeeze(-1)
expected = torch.stack([scores[..., h * 3] for h in range(4)], dim=-1)
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # no family call: gather_lint/static/view_sizes.py checks every view and reshape


def check_view(call: str, op: str, input_text: str, input_shape, asked: list, total: int) -> Violation:
    """`call` asks `op` for the sizes `asked` (one may be -1), which cannot hold the `total` elements of
    `input_text` (shaped `input_shape`)."""
    shown = "[" + ", ".join(str(d) for d in asked) + "]"
    fix = "derive the sizes from the tensor (`x.shape`, one `-1`) or fix the layout it arrives in"
    held = "a multiple of the other sizes" if -1 in asked else "their product"
    return Violation(
        CODE, SEVERITY,
        f"`{call}` regroups `{input_text}` {input_shape}, which holds {total} elements, as {shown}, but {total} is "
        f"not {held}: torch raises \"shape '{shown}' is invalid for input of size {total}\"; {fix}",
        help=fix,
    )
