"""GL026 interpolation weights vanish: `ceil(b) - b` and `b - floor(b)` are both 0 when b is a whole number.

Spreading a value between the two neighbours of a fractional position ``b`` (the categorical-DQN target
projection, soft histogram binning, a linear splat) is often written ``l = b.floor().long()``,
``u = b.ceil().long()``, then ``index_add_`` of ``p * (u - b)`` at ``l`` and of ``p * (b - l)`` at ``u``.
When ``b`` lands exactly on a whole number (a target clamped to ``v_min``/``v_max``, a terminal transition
whose reward is on the support), ``l == u`` and both weights are 0: that value's mass is never added and
the result no longer sums to what went in, silently. Take the upper neighbour as ``l + 1`` (clamped to the
last bin, where its weight ``b - l`` is 0), or move one neighbour where they coincide
(``l[(u > 0) & (l == u)] -= 1``). Reported when both neighbours are rounded from the same expression, both
weights are spelled that way, one is written by an accumulating call (``index_add_``, ``scatter_add_``,
``index_put_``, ``x[l] += ...``), and nothing in the function compares the two neighbours or moves one.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation
from ._example import Example

CODE = "GL026"
NAME = "interpolation-weights-vanish"
SEVERITY = WARNING
FIX = None
RUNTIME = False  # the rounding is not a family call

EXAMPLES = [
    Example(
        title="two-neighbour projection with floor and ceil",
        bad="""
import torch
values = torch.tensor([[0.5, 0.5], [0.25, 0.75]])
position = torch.tensor([[1.0, 2.5], [0.0, 3.0]])  # fractional bin of each value; whole numbers happen
low = position.floor().long()
high = position.ceil().long()
out = torch.zeros(2, 4)
out.scatter_add_(1, low, values * (high.float() - position))
out.scatter_add_(1, high, values * (position - low.float()))
expected = torch.tensor([[0.0, 0.5, 0.25, 0.25], [0.25, 0.0, 0.0, 0.75]])
""",
        good="""
import torch
values = torch.tensor([[0.5, 0.5], [0.25, 0.75]])
position = torch.tensor([[1.0, 2.5], [0.0, 3.0]])  # fractional bin of each value; whole numbers happen
low = position.floor().long()
high = low + 1
out = torch.zeros(2, 4)
out.scatter_add_(1, low, values * (high.float() - position))
out.scatter_add_(1, high.clamp(max=3), values * (position - low.float()))
expected = torch.tensor([[0.0, 0.5, 0.25, 0.25], [0.25, 0.0, 0.0, 0.75]])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # rounding pairs, found by gather_lint/static/ceil_floor_weights.py


def vanishing_weights(low: str, up: str, position: str, upper_weight: str, lower_weight: str) -> Violation:
    return Violation(
        CODE, SEVERITY,
        f"`{low}` and `{up}` are `{position}` rounded down and up: where `{position}` is a whole number they are "
        f"the same bin and both weights `{upper_weight}` and `{lower_weight}` are 0, so that value is never added "
        f"(its mass is dropped), silently; {_fix(low, up)}",
        help=_fix(low, up),
    )


def _fix(low: str, up: str) -> str:
    return f"take the upper neighbour as `{low} + 1` (clamped to the last bin) or move one neighbour where `{low} == {up}`"
