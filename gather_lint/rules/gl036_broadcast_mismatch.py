"""GL036 broadcast mismatch: two tensors combined elementwise have aligned sizes that cannot broadcast.

Broadcasting pads the shorter shape with 1s on the left and then needs each pair of aligned dims to be equal
or to hold a 1. A per-sample vector meant to scale the rows of a matrix (``weights [B] * losses [B, T]``)
aligns with the last dim instead, so does a batch of timesteps multiplied with a per-token mask (``mask [F, H,
W] * t [B]``): torch raises ``RuntimeError: The size of tensor a (T) must match the size of tensor b (B) at
non-singleton dimension 1``, at a line that is often far from where the vector lost its place. The usual fix
gives the vector its own axis where it belongs (``weights[:, None] * losses``). Reported when both shapes are
known for certain and the two sizes are different numbers, neither of them 1. An in-place op cannot grow the tensor
it writes into: ``acc [N, 1] += x [N, D]`` (or ``acc.mul_(x)``) raises ``output with shape [N, 1] doesn't match the
broadcast shape [N, D]``, where ``acc + x`` would have broadcast.
"""
from typing import Optional

from ..contract import ERROR, Site, Violation
from ..dims import dim_text, value
from ._example import Example

CODE = "GL036"
NAME = "broadcast-mismatch"
SEVERITY = ERROR
FIX = None  # where the missing axis belongs is the author's call
RUNTIME = False  # torch's own error names both sizes; the runtime mode checks the family's calls

EXAMPLES = [
    Example(
        title="per-sample weights against per-token log-probs",
        bad="""
import torch

log_probs = torch.randn(4, 6, 10).log_softmax(-1)  # [B, T, V]
ids = torch.randint(0, 10, (4, 6))  # [B, T]
weights = torch.rand(4)  # [B]
token_logp = log_probs.gather(-1, ids.unsqueeze(-1)).squeeze(-1)
out = (weights * token_logp).sum()
expected = sum(weights[b] * log_probs[b, t, ids[b, t]] for b in range(4) for t in range(6))
""",
        good="""
import torch

log_probs = torch.randn(4, 6, 10).log_softmax(-1)  # [B, T, V]
ids = torch.randint(0, 10, (4, 6))  # [B, T]
weights = torch.rand(4)  # [B]
token_logp = log_probs.gather(-1, ids.unsqueeze(-1)).squeeze(-1)
out = (weights[:, None] * token_logp).sum()
expected = sum(weights[b] * log_probs[b, t, ids[b, t]] for b in range(4) for t in range(6))
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # no family call: gather_lint/static/broadcast_mismatch.py checks every elementwise combination


def check_pair(expression: str, op: str, left_text: str, left_shape, right_text: str, right_shape, dim: int,
               left_size, right_size) -> Violation:
    """`expression` combines `left_text` and `right_text` (with `op`), whose aligned sizes `left_size` and
    `right_size` (at dim `dim` of the broadcast result) differ and neither is 1."""
    fix = "give the shorter operand the axis it is meant for (`x[:, None]`, `x.unsqueeze(-1)`) or reduce the other"
    return Violation(
        CODE, SEVERITY,
        f"`{expression}` combines `{left_text}` {left_shape} with `{right_text}` {right_shape}; broadcasting aligns "
        f"the right-most dims, and at dim {dim} of the result {dim_text(left_size)} meets {dim_text(right_size)}: "
        f"torch raises 'The size of tensor a ({_number(left_size)}) must match the size of tensor b "
        f"({_number(right_size)}) at non-singleton dimension {dim}'; {fix}",
        help=fix,
    )


def check_in_place(expression: str, written_text: str, written_shape, other_text: str, other_shape,
                   broadcast_shape) -> Violation:
    """`expression` writes into `written_text` in place, but broadcasting it with `other_text` gives another
    shape (`broadcast_shape`, None where it has unknown sizes) than the written tensor's."""
    fix = f"combine the two out of place, into a new tensor, or reduce `{other_text}` to {written_shape}"
    grown = broadcast_shape if broadcast_shape is not None and None not in broadcast_shape.dims else "a larger shape"
    return Violation(
        CODE, SEVERITY,
        f"`{expression}` writes in place into `{written_text}` {written_shape}, but with `{other_text}` "
        f"{other_shape} the result broadcasts to {grown}, which an in-place op cannot grow into: torch raises "
        f"'output with shape {_numbers(written_shape)} doesn't match the broadcast shape"
        f"{' ' + _numbers(broadcast_shape) if grown is broadcast_shape else ''}'; {fix}",
        help=fix,
    )


def _numbers(shape) -> str:
    return "[" + ", ".join(_number(d) for d in shape.dims) + "]"


def _number(d) -> str:
    """A size as torch prints it where the analysis knows its number, else its name (`N`)."""
    number = value(d)
    return dim_text(d) if number is None else str(number)
