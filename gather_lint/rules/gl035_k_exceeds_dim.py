"""GL035 k exceeds the dim: `topk(k, dim)` or `kthvalue(k, dim)` asks for more entries than the dim holds.

``x.topk(k, dim)`` returns the k largest entries along ``dim`` and their positions; it needs
``k <= x.size(dim)``, and ``x.kthvalue(k, dim)`` needs ``1 <= k <= x.size(dim)``. A k from a config (a patch
size, a number of candidates, of neighbours, of experts) meets a dim the data sizes: a cropped point cloud with
fewer points than a patch holds, a corpus smaller than the candidates asked for, fewer blocks than are selected.
torch raises ``RuntimeError: selected index k out of range`` (``kthvalue(): selected number k out of range``),
naming neither k nor the size, on the inputs that are small. Cap k at the size (``min(k, x.size(dim))``) and pad
the result where a fixed count is needed. Reported when both k and the size along that dim are known and k is
larger for certain (numbers, or names that differ by a constant).
"""
from typing import Optional

from ..contract import ERROR, Site, Violation
from ._example import Example

CODE = "GL035"
NAME = "k-exceeds-dim"
SEVERITY = ERROR
FIX = None  # capping k changes the result's shape: whether to pad it back is the author's call
RUNTIME = True  # explained at run time too, once torch has raised (gather_lint/runtime/count_checks.py)

EXAMPLES = [
    Example(
        title="a patch of 16 nearest points in a cloud of 10",
        bad="""
import torch

points = torch.randn(10, 3)  # [N, 3]
centers = points[:4]  # [M, 3]
dist = torch.cdist(centers, points)  # [M, N]
out = dist.topk(16, dim=1, largest=False).indices
expected = torch.stack([torch.argsort(dist[m])[:16] for m in range(4)])
""",
        good="""
import torch

points = torch.randn(10, 3)  # [N, 3]
centers = points[:4]  # [M, 3]
dist = torch.cdist(centers, points)  # [M, N]
out = dist.topk(min(16, dist.size(1)), dim=1, largest=False).indices
expected = torch.stack([torch.argsort(dist[m])[:16] for m in range(4)])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # topk is not a family call: gather_lint/static/op_counts.py and the runtime call check_count


def check_count(call: str, op: str, k, size, axis: int, input_text: str, shape) -> Violation:
    """`call` (`x.topk(k, dim)` or `x.kthvalue(k, dim)`) asks for k entries where dim `axis` of the input holds
    `size`; k and size as the analysis or the run knows them (a number, or a name with its number)."""
    what = f"`{input_text}` {shape}" if input_text else f"the input {shape}"
    message = "selected index k out of range" if op == "topk" else \
        f"kthvalue(): selected number k out of range for dimension {axis}"
    fix = f"cap k at the size, `min(k, {input_text or 'x'}.size({axis}))`, and pad the result where a fixed count is needed"
    return Violation(
        CODE, SEVERITY,
        f"`{call}` asks for k = {_told(k)} entries along dim {axis} of {what}, which holds {_told(size)}; torch raises "
        f"'{message}'; {fix}",
        help=fix,
    )


def _told(d) -> str:
    """`64`, or `point_limit (64)` for a name whose number is known."""
    number = getattr(d, "size", None)
    return f"{d} ({number})" if number is not None and str(d) != str(number) else str(d)
