"""GL005 unexpanded index: the index has size 1 on a non-gathered dim where the input is larger.

gather only requires ``index.size(d) <= input.size(d)`` for ``d != dim`` and returns the index's
shape, so ``feats [N, D].gather(0, idx [K, 1])`` runs and returns ``[K, 1]``: only column 0 of
each selected row. The author nearly always wanted ``idx.expand(-1, D)`` (rows ``[K, D]``).
``take_along_dim`` broadcasts the index and is not affected.

The same truncation hits an index sized for one factor of a dim the input has flattened: a
``[B, 1]`` index on a ``[T*B, A]`` matrix (time and batch of a rollout, batch and beams, batch and
heads) reads only the first B of the T*B rows. Only named factors count: a ``2*B`` from a
concatenation may hold the wanted half first. That variant is static only: at run time the sizes are
plain numbers, and a smaller index may be meant.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation, named, ranked_pair, size_expr
from ..dims import Sym, dim_text, must_equal, value, varies
from .gl004_index_from_wrong_dim import value_axis
from ._example import Example

CODE = "GL005"
NAME = "unexpanded-index"
SEVERITY = WARNING
FIX = "unsafe"  # expanding changes the output shape that later code sees
FIX_NOTE = (
    "The fix appends `.expand(...)` with the input's sizes on the size-1 dims, so every column (every "
    "entry of those dims) is read. It is not offered when the index's length along `dim` equals the "
    "input's size on a size-1 dim (`probs [B, C].gather(1, labels.unsqueeze(0))`): that is as likely "
    "an unsqueeze at the wrong dim (a pick per row, `labels.unsqueeze(1)`). Nor when a 2-d index holds one "
    "entry per row of `dim` (`scores [B, C].gather(0, gold [B, 1])`): a pick per row along the other dim "
    "(`gather(1, ...)`) reads as plausibly as whole rows, and the message names both."
)
# the codemods that apply this rule's fix (named, not imported: linting never loads libcst)
FIX_CODEMODS = ("gather_lint.codemods.expression.AppendToExpression",)

EXAMPLES = [
    Example(
        title="class-feature rows selected with a [K, 1] index",
        bad="""
import torch
features = torch.randn(10, 128)  # [N, D]
class_idx = torch.tensor([3, 1, 4, 1, 5])
out = torch.gather(features, 0, class_idx.unsqueeze(1))
expected = torch.stack([features[i] for i in class_idx])
""",
        good="""
import torch
features = torch.randn(10, 128)  # [N, D]
class_idx = torch.tensor([3, 1, 4, 1, 5])
out = torch.gather(features, 0, class_idx.unsqueeze(1).expand(-1, 128))
expected = torch.stack([features[i] for i in class_idx])
""",
    ),
    Example(
        title="top-k patch selection without expanding over features",
        bad="""
import torch
scores = torch.randn(2, 6)  # [B, N]
patches = torch.randn(2, 6, 4)  # [B, N, D]
idx = scores.topk(3, dim=1).indices
out = patches.gather(1, idx.unsqueeze(-1))
expected = torch.stack([patches[b, idx[b]] for b in range(2)])
""",
        good="""
import torch
scores = torch.randn(2, 6)  # [B, N]
patches = torch.randn(2, 6, 4)  # [B, N, D]
idx = scores.topk(3, dim=1).indices
out = torch.take_along_dim(patches, idx.unsqueeze(-1), dim=1)
expected = torch.stack([patches[b, idx[b]] for b in range(2)])
""",
    ),
]

def check(site: Site) -> Optional[Violation]:
    if site.op.family != "gather":
        return None
    pair = ranked_pair(site)
    if pair is None:
        return None
    # A singleton on the dim the index's values belong to is the per-position idiom with the wrong
    # dim (GL004's finding), not a missing expand.
    own = value_axis(site)
    short = [
        k for k in range(pair.rank)
        if k not in (pair.axis, own) and value(pair.index.dims[k]) == 1 and varies(pair.input.dims[k])
        and not one_named_dim(pair.index.dims[k], pair.input.dims[k])
    ]
    if not short:
        return _one_factor_of_flattened(site, pair, own)
    args = ", ".join(size_expr(site.input, k) if k in short else "-1" for k in range(pair.rank))
    dims = ", ".join(f"dim {k} ({dim_text(pair.input.dims[k])})" for k in short)
    what = "only column 0 is read" if pair.rank == 2 and short == [1] else f"only entry 0 of {dims} is read"
    per_row = _one_per_row(pair, short)
    return Violation(
        CODE, SEVERITY,
        f"index {named(site.index)} has size 1 on {dims} of input {named(site.input)}; gather returns the "
        f"index's shape, so {what}, silently; expand the index with `.expand({args})` "
        f"(or use torch.take_along_dim, which broadcasts)"
        + (f"; if it holds one position per row of dim {pair.axis}, gather along dim {short[0]} instead"
           if per_row else ""),
        fix_suffix=None if per_row or _looks_transposed(pair, short) or _per_sample_values(site, pair, short)
        else f".expand({args})",
    )


def one_named_dim(index_dim, input_dim) -> bool:
    """Both tensors name the dim alike (`# (batch, 2, d)` and `# (batch, N, d)`) and only the index's size
    is known: one dim, so the index's 1 (a caller's batch of one) is the input's size too."""
    return isinstance(index_dim, Sym) and isinstance(input_dim, Sym) and index_dim.name == input_dim.name \
        and value(input_dim) is None


def _one_factor_of_flattened(site: Site, pair, own) -> Optional[Violation]:
    """The index is sized for one factor of a dim the input has flattened (`[B, 1]` on a `[T*B, A]`
    rollout, `[B, ..]` on `[B*beams, ..]`): gather reads only the first B of the T*B rows, silently.
    Only named factors count: `2*B` from a concatenation may hold the wanted half first."""
    for k in range(pair.rank):
        if k in (pair.axis, own):
            continue
        whole, part = pair.input.dims[k], pair.index.dims[k]
        others = _other_factors(whole, part)
        if not others:
            continue
        rows = "rows" if k == 0 else f"entries of dim {k}"
        n, total = dim_text(part), dim_text(whole)
        split = ", ".join(whole.name.split("*"))
        return Violation(
            CODE, SEVERITY,
            f"index {named(site.index)} has {n} {rows} but input {named(site.input)} has {total} on dim {k} "
            f"({n} flattened together with {' and '.join(others)}); gather returns the index's shape, so it "
            f"reads only the first {n} of the {total} {rows}, silently; select the part you meant first "
            f"(view dim {k} as [{split}] and index it) or build the index over all {total} {rows}",
        )
    return None


def _other_factors(whole, part) -> list:
    """The named factors of `whole` (`T*B`) besides `part` (`B`), when `part` is one of them; else []."""
    if not isinstance(whole, Sym) or not isinstance(part, Sym) or "*" in part.name or "*" not in whole.name:
        return []
    factors = whole.name.split("*")
    if part.name not in factors:
        return []
    factors.remove(part.name)
    if not factors or any(not f.isidentifier() for f in factors):
        return []
    if value(whole) is not None and value(whole) == value(part):
        return []  # the other factors are 1 here: every row is read
    return factors


def _per_sample_values(site: Site, pair, short) -> bool:
    """Labels/actions (one per sample) with size 1 on a dim before the gathered one: the batch went
    missing (`argmax` over the whole tensor, a single sample), so copying one value to every row is
    not what was meant: no fix is offered."""
    domain = site.index.domain
    return domain is not None and domain.category and any(k < pair.axis for k in short)


def _looks_transposed(pair, short) -> bool:
    """The index's length along `dim` equals the input's size on a size-1 dim: `labels.unsqueeze(0)`
    where `.unsqueeze(1)` was meant (a pick per row) reads the same as a missing expand, so the
    shapes do not say which fix is right: none is offered. A length of 1 is no such twin: the dim it
    would stand for has more than one entry (else nothing is missed)."""
    length = pair.index.dims[pair.axis]
    if value(length) == 1:
        return False
    return any(may_equal(length, pair.input.dims[k]) for k in short)


def _one_per_row(pair, short) -> bool:
    """The index has as many entries along `dim` as the input has there (the same name: one per row) and
    one short dim: `scores [B, C].gather(0, gold [B, 1])` reads as a pick per row along the short dim
    (`gather(1, ...)`) as well as whole rows, so the shapes do not say which fix is right."""
    rows, entries = pair.input.dims[pair.axis], pair.index.dims[pair.axis]
    return len(short) == 1 and pair.rank == 2 and isinstance(rows, Sym) and isinstance(entries, Sym) \
        and must_equal(entries, rows)


def may_equal(a, b) -> bool:
    """Equal, or not known to differ: two different names count as different sizes, a number and a
    name of unknown value (`4` from a call, `batch` from a docstring) do not."""
    if must_equal(a, b):
        return True
    if value(a) is not None and value(b) is not None:
        return False
    return not (isinstance(a, Sym) and isinstance(b, Sym))
