"""GL033 refused arguments: a family call whose arguments torch's signature does not take.

Each op of the family spells its arguments its own way: ``scatter_add`` writes ``src`` and ``index_add_``
``source``; ``scatter_`` takes a tensor as ``src=`` and a number as ``value=``; ``scatter_reduce`` has no
default ``reduce``; ``sparse_grad``, ``alpha`` and ``include_self`` are keyword-only; ``torch.gather`` wants a
dim before the index (``gather(params, indices)`` is another library's order). A call that fits none of the
op's overloads is refused by torch's argument parser with a TypeError that lists every overload
(``received an invalid combination of arguments``) or names a parameter the call never spelled (``missing 1
required positional arguments: "src"`` for a ``source=`` keyword). Such a call sits in code that has never run:
an inplace branch, a fallback for old torch versions, a path taken once per epoch.

Reported when the callee is certainly the torch op (``torch.<op>``, or a method on a value known to be a
tensor or returned by a torch constructor; in-place ``..._`` methods on any value, in a file that imports torch
and no other array library with methods of those names) and the arguments rule out every overload: a keyword the op
does not have, a required argument missing, more positionals than it takes, or an argument whose kind is known
and refused (a tensor with dims as ``dim``, a number literal as ``src``, a list as ``index``).

Also a reduction named by a string the op does not take: ``scatter_`` takes ``reduce='add'`` or ``'multiply'``
only (``'sum'``, ``'mean'``, ``'amax'`` are ``scatter_reduce``'s names), and ``scatter_reduce`` takes ``'sum'``,
``'prod'``, ``'mean'``, ``'amax'`` or ``'amin'`` (not ``'add'``). The parser takes the call; the op raises a
RuntimeError.
"""
from typing import Optional

from ..contract import ERROR, Site, Violation
from ..signatures import Refusal
from ._example import Example

CODE = "GL033"
NAME = "refused-arguments"
SEVERITY = ERROR
FIX = "safe"  # only a keyword is renamed (`source=` -> `src=`, `src=0` -> `value=0`): the call then runs as meant
FIX_NOTE = (
    "The fix renames a keyword that another op of the family spells differently (`source=` to `src=` for "
    "scatter_add, `src=` to `source=` for index_add_), and scatter's `src=` to `value=` when a number is "
    "written; other refusals are left to the author."
)
FIX_CODEMODS = ("gather_lint.rules.gl033_fix.RenameKeyword",)
RUNTIME = True  # the runtime mode explains torch's TypeError in the same words (gather_lint/runtime/)

EXAMPLES = [
    Example(
        title="a pointer-generator mix written with index_add_'s keyword",
        bad="""
import torch
gen = torch.full((2, 5), 0.1)
copy_ids = torch.tensor([[1, 3], [0, 0]])
attn = torch.tensor([[0.2, 0.3], [0.25, 0.25]])
out = gen.scatter_add(dim=1, index=copy_ids, source=attn)
expected = gen.clone()
for b in range(2):
    for s in range(2):
        expected[b, copy_ids[b, s]] += attn[b, s]
""",
        good="""
import torch
gen = torch.full((2, 5), 0.1)
copy_ids = torch.tensor([[1, 3], [0, 0]])
attn = torch.tensor([[0.2, 0.3], [0.25, 0.25]])
out = gen.scatter_add(dim=1, index=copy_ids, src=attn)
expected = gen.clone()
for b in range(2):
    for s in range(2):
        expected[b, copy_ids[b, s]] += attn[b, s]
""",
    ),
    Example(
        title="a log one-hot whose number goes through src=",
        bad="""
import torch
labels = torch.tensor([[2, 0]])
log_onehot = torch.full((1, 3, 2), -69.0)
log_onehot.scatter_(1, labels[:, None, :], src=0.0)
out = log_onehot
expected = torch.tensor([[[-69.0, 0.0], [-69.0, -69.0], [0.0, -69.0]]])
""",
        good="""
import torch
labels = torch.tensor([[2, 0]])
log_onehot = torch.full((1, 3, 2), -69.0)
log_onehot.scatter_(1, labels[:, None, :], value=0.0)
out = log_onehot
expected = torch.tensor([[[-69.0, 0.0], [-69.0, -69.0], [0.0, -69.0]]])
""",
    ),
    Example(
        title="a per-segment sum with scatter_reduce's reduction left out",
        bad="""
import torch
values = torch.tensor([1.0, 2.0, 4.0])
segment = torch.tensor([0, 1, 1])
out = torch.zeros(2).scatter_reduce(0, segment, values)
expected = torch.tensor([1.0, 6.0])
""",
        good="""
import torch
values = torch.tensor([1.0, 2.0, 4.0])
segment = torch.tensor([0, 1, 1])
out = torch.zeros(2).scatter_reduce(0, segment, values, "sum")
expected = torch.tensor([1.0, 6.0])
""",
    ),
    Example(
        title="scatter_reduce's name for a sum given to scatter_",
        bad="""
import torch
values = torch.tensor([1.0, 2.0, 4.0])
segment = torch.tensor([0, 1, 1])
out = torch.zeros(2).scatter_(0, segment, values, reduce="sum")
expected = torch.tensor([1.0, 6.0])
""",
        good="""
import torch
values = torch.tensor([1.0, 2.0, 4.0])
segment = torch.tensor([0, 1, 1])
out = torch.zeros(2).scatter_reduce_(0, segment, values, "sum")
expected = torch.tensor([1.0, 6.0])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # a refused call binds to no site: found by gather_lint/static/refused_calls.py


def refused(refusal: Refusal) -> Violation:
    """The violation for a call torch's parser refuses; `fix_rename` carries a keyword rename ("source=src")."""
    fix = refusal.fix()
    renamed = refusal.renamed()
    message = f"`{refusal.signature()}`: {refusal.sentence()}, so torch raises TypeError at this call"
    return Violation(CODE, SEVERITY, message + (f"; {fix}" if fix else ""), help=fix,
                     fix_rename=f"{renamed[0]}={renamed[1]}" if renamed else None)


def refused_reduction(found) -> Violation:
    """The violation for a reduction name the op refuses (`found`: signatures.RefusedReduction)."""
    spelled_call = f"{found.op.spelled}(..., reduce='{found.given}')"
    names = ", ".join(f"'{r}'" for r in found.accepted()[:-1]) + f" or '{found.accepted()[-1]}'"
    fix = found.fix()
    message = (f"`{spelled_call}` names the reduction '{found.given}', but {found.op.spelled} takes reduce={names} "
               f"only, so torch raises RuntimeError '{found.raised()}'")
    return Violation(CODE, SEVERITY, message + (f"; {fix}" if fix else ""), help=fix)

