"""GL031 write into an index's copy: `x[mask][k] = v` and `x[ids].add_(v)` change a copy, not x.

Indexing with a tensor (a bool mask, a list or tensor of positions) is advanced indexing, and reading
``x[mask]`` returns a new tensor, not a view of x. A write that goes through that read,
``x[mask][:, 0] = 0``, ``x[mask][picked] *= 1 + alpha``, or an in-place method on it, ``x[ids].zero_()``,
``x[ids].add_(v)``, changes the copy, which is then dropped: x is left as it was, silently. A single
subscript, ``x[mask] = v`` or ``x[ids] += v``, is a write into x itself (``index_put_``), and basic indexing
(ints, slices) gives a view, so ``x[0][mask] = v`` and ``x[:, 1:][mask] = v`` do write into x. Reported when
the first subscript's key is certainly a tensor of positions or a mask (a bool tensor, a tensor of ints
with at least one dim, a list of ints) and the outer value is a tensor.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation
from ._example import Example

CODE = "GL031"
NAME = "write-into-index-copy"
SEVERITY = WARNING
FIX = None  # combining the two keys (masks, positions, slices) depends on what each of them selects
RUNTIME = False  # the write is a plain `__setitem__` on a temporary: no family call to see

EXAMPLES = [
    Example(
        title="a group's high-entropy tokens scaled through two masks",
        bad="""
import torch
adv = torch.arange(8.0)
group = torch.tensor([True, True, False, True, False, True, True, False])
high = torch.tensor([True, False, True, False, True])
adv[group][high] *= 2.0
out = adv
expected = torch.tensor([0.0, 1.0, 2.0, 6.0, 4.0, 5.0, 12.0, 7.0])
""",
        good="""
import torch
adv = torch.arange(8.0)
group = torch.tensor([True, True, False, True, False, True, True, False])
high = torch.tensor([True, False, True, False, True])
rows = group.nonzero(as_tuple=True)[0][high]
adv[rows] *= 2.0
out = adv
expected = torch.tensor([0.0, 1.0, 2.0, 6.0, 4.0, 5.0, 12.0, 7.0])
""",
    ),
    Example(
        title="rows of picked ids zeroed in place on their copy",
        bad="""
import torch
table = torch.ones(5, 3)
stale = torch.tensor([1, 3])
table[stale].zero_()
out = table
expected = torch.tensor([[1.0] * 3, [0.0] * 3, [1.0] * 3, [0.0] * 3, [1.0] * 3])
""",
        good="""
import torch
table = torch.ones(5, 3)
stale = torch.tensor([1, 3])
table[stale] = 0.0
out = table
expected = torch.tensor([[1.0] * 3, [0.0] * 3, [1.0] * 3, [0.0] * 3, [1.0] * 3])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # a write through a subscript chain, found by gather_lint/static/index_copies.py


def write_into_copy(write: str, read: str, owner: str, key_kind: str) -> Violation:
    fix = f"write through one subscript of `{owner}` (combine the keys into one index of `{owner}`)"
    return Violation(
        CODE, SEVERITY,
        f"`{write}` writes into `{read}`, a copy: indexing with {key_kind} returns a new tensor, not a view, so "
        f"`{owner}` is left unchanged, silently; {fix}",
        help=fix,
    )


def method_on_copy(call: str, read: str, owner: str, key_kind: str, method: str) -> Violation:
    fix = f"write into `{owner}` itself, e.g. `{read} = ...` or `{read} += ...` (index_put_), not `.{method}()` on the read"
    return Violation(
        CODE, SEVERITY,
        f"`{call}` changes `{read}` in place, a copy: indexing with {key_kind} returns a new tensor, not a view, "
        f"so `{owner}` is left unchanged and the changed copy is dropped, silently; {fix}",
        help=fix,
    )
