"""GL006 missing squeeze: a gathered result keeps its singleton dim and is combined with a tensor without it.

``log_probs.gather(-1, ids.unsqueeze(-1))`` is ``[B, L, 1]``. Multiplied with a ``[B, L]`` mask (or added
to ``[B, L]`` advantages, compared with ``[B, L]`` reference log-probs), broadcasting aligns the
right-most dims: the result is ``[B, L, L]`` whenever ``B == L``, and always when the batch has one
row, silently; otherwise torch raises a size mismatch far from the gather. A singleton in the middle
(``[B, 1, T]`` with ``[B, T]``) always broadcasts silently to ``[B, B, T]``. The reverse mistake,
``.squeeze()`` with no dim on a gathered ``[1, L, 1]``, drops the batch dim too and gives ``[L]``.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation
from ..dims import Shape, dim_text, must_equal
from ._example import Example

CODE = "GL006"
NAME = "missing-squeeze"
SEVERITY = WARNING
FIX = "unsafe"  # squeezing changes the shape later code sees
RUNTIME = True  # checked on real values by the runtime mode too (see gather_lint/runtime/)

EXAMPLES = [
    Example(
        title="masked per-token log-probs with batch size 1",
        bad="""
import torch
log_probs = torch.randn(1, 5, 10).log_softmax(-1)  # [B, L, V]
ids = torch.randint(10, (1, 5))
mask = torch.tensor([[1.0, 1.0, 1.0, 0.0, 0.0]])  # [B, L]
token_logps = log_probs.gather(-1, ids.unsqueeze(-1))
out = token_logps * mask
expected = torch.stack([log_probs[0, t, ids[0, t]] * mask[0, t] for t in range(5)]).unsqueeze(0)
""",
        good="""
import torch
log_probs = torch.randn(1, 5, 10).log_softmax(-1)  # [B, L, V]
ids = torch.randint(10, (1, 5))
mask = torch.tensor([[1.0, 1.0, 1.0, 0.0, 0.0]])  # [B, L]
token_logps = log_probs.gather(-1, ids.unsqueeze(-1)).squeeze(-1)
out = token_logps * mask
expected = torch.stack([log_probs[0, t, ids[0, t]] * mask[0, t] for t in range(5)]).unsqueeze(0)
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # a dataflow rule: see check_broadcast


def check_squeeze_all(gathered: Shape, axis: Optional[int], text: str) -> Optional[Violation]:
    """`.squeeze()` with no dim on a gathered result that has another literal size-1 dim."""
    if gathered is None or gathered.variadic or axis is None:
        return None
    others = [k for k, d in enumerate(gathered.dims) if k != axis and d == 1]
    if not others:
        return None
    kept = [d for k, d in enumerate(gathered.dims) if d != 1]
    return Violation(
        CODE, SEVERITY,
        f"`{text}.squeeze()` on {gathered} removes every size-1 dim, dim {others[0]} too, giving "
        f"[{', '.join(dim_text(d) for d in kept)}]; squeeze only gather's dim with `.squeeze({axis - len(gathered.dims)})`",
    )


def check_broadcast(gathered: Shape, axis: int, other: Shape, gathered_text: str, other_text: str,
                    op: str) -> Optional[Violation]:
    """`gathered` has a singleton at `axis` left by gather; `other` is combined with it by `op`."""
    if gathered is None or other is None or gathered.variadic or other.variadic:
        return None
    dims = gathered.dims
    rank = len(dims)
    if rank < 2 or len(other.dims) != rank - 1 or not 0 <= axis < rank:
        return None
    rest = dims[:axis] + dims[axis + 1:]
    if not all(must_equal(a, b) for a, b in zip(rest, other.dims)):
        return None
    squeeze = axis - rank if axis == rank - 1 else axis
    shape = Shape(dims)
    grown = Shape(tuple(dims[:axis]) + (other.dims[axis - 1] if axis else dims[0],) + tuple(dims[axis + 1:])) if axis else None
    if axis == rank - 1:
        effect = (f"broadcasting aligns the right-most dims, so the result is [{', '.join(dim_text(d) for d in rest)}, "
                  f"{dim_text(rest[-1])}] whenever {dim_text(rest[0])} == {dim_text(rest[-1])} or the batch has one row, "
                  f"silently, and torch raises a size mismatch otherwise")
    else:
        effect = f"broadcasting silently gives {grown}" if grown else "broadcasting silently adds a dim"
    return Violation(
        CODE, SEVERITY,
        f"`{gathered_text}` {shape} keeps gather's singleton dim {axis} and is combined ({op}) with `{other_text}` "
        f"{other}; {effect}; squeeze it first with `.squeeze({squeeze})`",
        fix_suffix=f".squeeze({squeeze})",
    )
