"""GL027 permutation applied twice: a sorted tensor indexed by its own sort permutation to "unsort" it.

``values, perm = x.sort(dim)`` gives ``values`` in sorted order: entry i is entry ``perm[i]`` of ``x``.
Putting a tensor in that order back in the original one needs the inverse permutation:
``out.scatter(dim, perm, values)``, ``values.gather(dim, perm.argsort(dim))``, or
``out[perm] = values``. ``values.gather(dim, perm)`` (``index_select``, ``take_along_dim``) applies the
permutation a second time instead and reads entry ``perm[perm[i]]`` of ``x``: nucleus-filtered logits land
on other tokens, hidden states of a length-sorted batch go to other examples. Torch cannot see it; the
result is silently wrong for every permutation that is not its own inverse. Reported when the tensor is
known to sit in the order of the same sort call whose indices are the index, along the same dim; and for
``x[perm]`` subscripts with a 1-d permutation (``argsort``, ``sort``, ``randperm``) of x's first dim.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation, mark_axis, named
from ._example import Example

CODE = "GL027"
NAME = "permutation-applied-twice"
SEVERITY = WARNING
FIX = "unsafe"  # the inverse permutation changes which entries are read (to the intended ones)
FIX_NOTE = (
    "The fix appends `.argsort(dim)` to the index: the inverse permutation, which puts the entries back."
)
FIX_CODEMODS = ("gather_lint.codemods.expression.AppendToExpression",)
RUNTIME = False  # the runtime sees two integer tensors, not that one is the other's sort order
_ORDERED = ("gather", "take_along_dim", "index_select")

EXAMPLES = [
    Example(
        title="nucleus filtering un-sorted with gather",
        bad="""
import torch
logits = torch.tensor([[0.1, 2.0, -1.0, 0.5, 1.5], [1.0, -0.5, 0.3, 2.5, 0.0]])
sorted_logits, sorted_indices = torch.sort(logits, dim=1, descending=True)
sorted_logits[:, 3:] = float("-inf")
out = sorted_logits.gather(1, sorted_indices)
expected = torch.tensor([[v if v >= sorted(row, reverse=True)[2] else float("-inf") for v in row]
                         for row in logits.tolist()])
""",
        good="""
import torch
logits = torch.tensor([[0.1, 2.0, -1.0, 0.5, 1.5], [1.0, -0.5, 0.3, 2.5, 0.0]])
sorted_logits, sorted_indices = torch.sort(logits, dim=1, descending=True)
sorted_logits[:, 3:] = float("-inf")
out = sorted_logits.gather(1, sorted_indices.argsort(1))
expected = torch.tensor([[v if v >= sorted(row, reverse=True)[2] else float("-inf") for v in row]
                         for row in logits.tolist()])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    order, permutation = site.input.order, site.index.permutation
    if site.op.name not in _ORDERED or order is None or permutation is None or order[0] != permutation[0]:
        return None
    axis = mark_axis(site.input.shape, site.dim)
    if axis is None or axis != order[1]:
        return None
    if site.op.name == "index_select" and permutation[1] != 0:
        return None  # rows of a 2-d permutation: not one order of this axis
    if site.op.name != "index_select" and axis != permutation[1]:
        return None
    line = order[0][0]
    fix = f"index with the inverse permutation, `{site.index.text}.argsort({site.dim})`, or scatter the values back"
    return Violation(
        CODE, SEVERITY,
        f"{named(site.input)} is already in the order of the sort at line {line}, and {named(site.index)} is that "
        f"sort's permutation: {site.op.spelled}() along dim {site.dim} applies it a second time (entry "
        f"perm[perm[i]] of the original), not its inverse, so the entries land in the wrong places, silently; {fix}",
        fix_suffix=f".argsort({site.dim})",
        help=fix,
    )


def check_subscript(subscript: str, key: str, line: int) -> Violation:
    """`shuffled[perm]` with shuffled already `x[perm]` (or in the order of the sort that made perm)."""
    fix = f"index with the inverse permutation, `{key}.argsort()`, or write the rows back with `out[{key}] = ...`"
    return Violation(
        CODE, SEVERITY,
        f"`{subscript}`: the rows are already in the order of the permutation `{key}` (line {line}); indexing "
        f"them with it again applies it a second time (row perm[perm[i]] of the original), not its inverse, so "
        f"the rows land in the wrong places, silently; {fix}",
        fix_suffix=".argsort()",
        help=fix,
    )
