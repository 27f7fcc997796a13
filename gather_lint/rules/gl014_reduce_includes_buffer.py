"""GL014 reduce includes buffer: scatter_reduce averages (or maxes, mins, multiplies) the buffer's own zeros in.

``scatter_reduce`` defaults to ``include_self=True``: the destination's current value takes part in
the reduction at every position that receives a value. Onto a fresh ``torch.zeros`` buffer,
``"mean"`` divides by one extra element (the mean of 2 and 4 becomes 2, not 3), ``"prod"`` gives 0,
``"amax"`` clips negative maxima to 0 and ``"amin"`` positive minima to 0; onto ``torch.empty`` it
mixes in uninitialised memory. All silently.

A max onto zeros is wrong only where the values may be below 0, so ``"amax"`` is reported where the code
shows that they may be: normal draws, Linear, Conv and embedding outputs, logs, centred norms, differences.
Values of a sign nothing shows (a parameter filled by callers) are judged by what the callers pass.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation, named
from ._example import Example

CODE = "GL014"
NAME = "reduce-includes-buffer"
SEVERITY = WARNING
FIX = "unsafe"  # include_self=False changes the result (to the intended one): gather_lint.rules.gl014_fix
FIX_NOTE = (
    "The fix adds `include_self=False` to the call, laid out like its other arguments."
)
# the codemods that apply this rule's fix (named, not imported: linting never loads libcst)
FIX_CODEMODS = ("gather_lint.rules.gl014_fix.AddKeyword",)
RUNTIME = True  # checked on real values by the runtime mode too (see gather_lint/runtime/)

EXAMPLES = [
    Example(
        title="per-segment mean onto a zero buffer",
        bad="""
import torch
values = torch.tensor([2.0, 4.0, 6.0])
segment = torch.tensor([0, 0, 1])
out = torch.zeros(2).scatter_reduce(0, segment, values, reduce="mean")
expected = torch.stack([values[segment == s].mean() for s in range(2)])
""",
        good="""
import torch
values = torch.tensor([2.0, 4.0, 6.0])
segment = torch.tensor([0, 0, 1])
out = torch.zeros(2).scatter_reduce(0, segment, values, reduce="mean", include_self=False)
expected = torch.stack([values[segment == s].mean() for s in range(2)])
""",
    ),
]

_EFFECT = {
    "mean": "each mean counts the buffer's 0 as one more element",
    "prod": "each product is multiplied by the buffer's 0",
    "amax": "every maximum below 0 becomes 0",
    "amin": "every minimum above 0 becomes 0",
    "max": "every maximum below 0 becomes 0",
    "min": "every minimum above 0 becomes 0",
}


def check(site: Site) -> Optional[Violation]:
    reduce = site.options.get("reduce")
    if site.op.name != "scatter_reduce" or reduce not in _EFFECT or site.options.get("include_self") is False:
        return None
    filled = site.input.filled
    if filled not in ("zeros", "empty"):
        return None  # no buffer, or one of ones / a fill value, whose part in the reduction is not judged here
    if filled == "zeros" and reduce in ("amax", "max") and not _may_be_negative(site.payload):
        return None  # a max with the buffer's 0 is the max itself unless the code shows values below 0
    effect = _EFFECT[reduce] if filled == "zeros" else "uninitialised memory takes part in every reduction"
    return Violation(
        CODE, SEVERITY,
        f"scatter_reduce(reduce={reduce!r}) onto a fresh torch.{filled} buffer {named(site.input)} with "
        f"include_self=True (the default): {effect}, silently; pass include_self=False",
        fix_keyword="include_self=False",
    )


def _may_be_negative(payload) -> bool:
    """Values the code shows may be below 0 (normal draws, Linear outputs, logs, differences), and not known
    to be >= 0 (relu outputs, positions, 0/1 masks). A sign nothing shows (a parameter that only its callers
    fill) is no evidence: the callers' own facts decide there."""
    if payload is None or not payload.signed or payload.non_negative:
        return False
    domain = payload.domain
    return not _positions(payload) and not (domain is not None and domain.binary)


def _positions(payload) -> bool:
    """Values known to be positions in a dim (sort/argsort/topk indices, arange), of a known size or not:
    never below 0. Not ids (category), nor values with a sentinel or made float or rounded."""
    domain = payload.domain if payload is not None else None
    return domain is not None and not domain.category and not domain.repeats and domain.sentinel is None \
        and domain.made_float is None and domain.rounded is None and domain.float_if_empty is None
