"""GL004 index values from the wrong dim: the values were made for one dim and index another.

Token ids index the vocabulary dim; ``topk``/``argmax``/``argsort`` over dim k give positions in
dim k; ``randint(n, ...)`` gives values in ``[0, n)``. Gathering them along a different dim either
raises ``index 41 is out of bounds for dimension 1 with size 5`` (a device-side assert on CUDA,
reported far from the cause) or, when the values happen to fit, silently reads wrong entries.
Plain subscripts (``h_n[restore]``, positions of the batch used on the layers dim of an RNN state) are
checked the same way. At run time the same mistake is GL004 where the runtime saw where the values came from (``topk``/``argmax``/
``sort`` results and their clones, ids an embedding looked up); other values past the dim are GL011, with a
"did you mean dim=..." hint when they fit one other dim.

Sizes equal only as numbers (``4`` and ``4``) say little about which dim the values were made for,
unless the index is laid out for that dim: ``topk(k, dim=-1)`` of a tensor shaped like the input gives
an index with the input's sizes on every other dim, the per-position layout, and gathering or
scattering it along another dim is the mistake (a mask for ``[tokens, groups]`` applied to
``[batch, seq, groups]`` with ``dim=1``).

Ranks are not positions either: ``torch.argsort(topk_indices)`` (or ``sort().indices``) of ``k`` positions
into a dim of size ``n`` ranks them among themselves, values ``0..k-1``. Used along that same dim, with
``k`` known to be smaller than ``n``, the call reads (or writes) only the dim's first ``k`` entries,
whichever positions were chosen; the sorted positions are ``torch.sort(topk_indices).values``.
"""
import re
from typing import Optional

from ..contract import ERROR, Site, Violation, gather_axis, named
from ..dims import Sym, dim_text, must_equal, must_exceed, value
from ._example import Example

CODE = "GL004"
NAME = "index-from-wrong-dim"
SEVERITY = ERROR
FIX = "unsafe"  # changes which values are read: the intended ones, but a result all the same
FIX_NOTE = (
    'The fix replaces the literal dim with the dim the values were made for, and is offered only '
    'where that alone makes the call right: the index matches the input on every other dim (or the op '
    'takes a vector index).'
)
# the codemods that apply this rule's fix (named, not imported: linting never loads libcst)
FIX_CODEMODS = ("gather_lint.codemods.expression.ReplaceExpression",)

# Dim names that mean "a vocabulary of categories": what token ids, labels and actions index.
_CATEGORY_DIM = re.compile(
    r"(n_?vocab|vocab(_?size|_?dim)?|num_?tokens|n_?tokens|num_?classes|n_?classes|num_?labels|n_?labels"
    r"|num_?actions|n_?actions|action_?dim|classes|vocabulary)",
    re.IGNORECASE,
)

EXAMPLES = [
    Example(
        title="token ids gathered along the sequence dim",
        bad="""
import torch
log_probs = torch.randn(2, 5, 40).log_softmax(-1)  # [B, L, V]
input_ids = torch.randint(40, (2, 5))
out = log_probs.gather(-2, input_ids.unsqueeze(-1)).squeeze(-1)
expected = torch.stack([torch.stack([log_probs[b, t, input_ids[b, t]] for t in range(5)]) for b in range(2)])
""",
        good="""
import torch
log_probs = torch.randn(2, 5, 40).log_softmax(-1)  # [B, L, V]
input_ids = torch.randint(40, (2, 5))
out = log_probs.gather(-1, input_ids.unsqueeze(-1)).squeeze(-1)
expected = torch.stack([torch.stack([log_probs[b, t, input_ids[b, t]] for t in range(5)]) for b in range(2)])
""",
    ),
    Example(
        title="top-k over patches gathered along the feature dim",
        bad="""
import torch
scores = torch.randn(2, 6)  # [B, N]
patches = torch.randn(2, 6, 4)  # [B, N, D]
idx = scores.topk(3, dim=1).indices
out = patches.gather(2, idx.unsqueeze(1).expand(-1, 6, -1))
expected = torch.stack([patches[b, idx[b]] for b in range(2)])
""",
        good="""
import torch
scores = torch.randn(2, 6)  # [B, N]
patches = torch.randn(2, 6, 4)  # [B, N, D]
idx = scores.topk(3, dim=1).indices
out = patches.gather(1, idx.unsqueeze(-1).expand(-1, -1, 4))
expected = torch.stack([patches[b, idx[b]] for b in range(2)])
""",
    ),
]

EXAMPLES.append(Example(
    title="top-k over the last dim used along dim 1 of a 3-d tensor",
    bad="""
import torch
scores = torch.randn(2, 6, 4)  # [batch, seq, groups]
best = scores.topk(2, dim=-1).indices
out = torch.zeros_like(scores).scatter_(1, best, 1.0)
expected = torch.stack([torch.stack([torch.zeros(4).index_fill_(0, best[b, t], 1.0) for t in range(6)]) for b in range(2)])
""",
    good="""
import torch
scores = torch.randn(2, 6, 4)  # [batch, seq, groups]
best = scores.topk(2, dim=-1).indices
out = torch.zeros_like(scores).scatter_(-1, best, 1.0)
expected = torch.stack([torch.stack([torch.zeros(4).index_fill_(0, best[b, t], 1.0) for t in range(6)]) for b in range(2)])
""",
))


def is_category_dim(d) -> bool:
    return isinstance(d, Sym) and (d.name == "V" or _CATEGORY_DIM.fullmatch(d.name) is not None)


def value_axis(site: Site) -> Optional[int]:
    """The one input axis the index's values certainly belong to, if any."""
    domain, shape = site.index.domain, site.input.shape
    if domain is None or shape is None or shape.variadic or domain.binary or domain.bound_only:
        return None  # 0/1 values belong to no dim, nor do written-out ids whose largest matches a size
    if domain.category:
        candidates = [k for k, d in enumerate(shape.dims) if is_category_dim(d) and not _spanned(site, k)]
    elif domain.size is not None:
        candidates = [k for k, d in enumerate(shape.dims) if must_equal(d, domain.size)]
    else:
        return None
    return candidates[0] if len(candidates) == 1 else None


def _spanned(site: Site, k: int) -> bool:
    """The index runs along input dim k itself, off the op's dim, with k's own size (`zeros(b, num_tokens, V)
    .scatter_(-1, ids.unsqueeze(-1), 1.)` with ids `[b, num_tokens]`): position j of the index there is
    position j of the input, and the values choose along the op's dim only. A dim named like a vocabulary
    (`num_tokens`, also a sequence's length) that the ids span is their count, not what they index."""
    index, shape = site.index.shape, site.input.shape
    if index is None or index.variadic or len(index.dims) != len(shape.dims) or k == gather_axis(site):
        return False
    return must_equal(index.dims[k], shape.dims[k])


def check(site: Site) -> Optional[Violation]:
    domain = site.index.domain
    ranked = _ranks_as_positions(site)
    if ranked is not None:
        return ranked
    shape = site.input.shape
    axis = gather_axis(site)
    if domain is None or axis is None or not site.dim_given:
        return None
    index = site.index.shape
    if site.op.family == "gather" and index is not None and not index.variadic and len(index.dims) != len(shape.dims):
        return None  # the ranks differ: torch refuses the call whatever the dim (GL001 says how to fix it)
    here = shape.dims[axis]
    want = value_axis(site)
    if want is None or want == axis:
        return None
    if domain.category:
        if is_category_dim(here):
            return None
        meant = "the vocabulary-like"
        certain_raise = False
    else:
        if must_equal(here, domain.size):
            return None
        meant = f"size-{dim_text(domain.size)}"
        certain_raise = must_exceed(domain.size, here)
        # Sizes that are equal only as numbers are weak evidence: require a certain raise then.
        if not (isinstance(domain.size, Sym) and isinstance(shape.dims[want], Sym)) and not certain_raise \
                and not _laid_out_for(site, want):
            return None
    suggested = want - len(shape.dims) if site.dim < 0 else want
    return violation(site, domain.origin, meant, want, certain_raise,
                     fix_dim=suggested if _reads_whole_rows(site, want) or (
                         site.op.family == "scatter" and _laid_out_for(site, want)) else None)


def _ranks_as_positions(site: Site) -> Optional[Violation]:
    """argsort of positions (`torch.argsort(topk_indices)`) used along the dim those positions index: its
    values rank the k positions among themselves (0..k-1), so with k known to be smaller than the dim
    the call reads or writes only its first k entries, whichever positions were chosen."""
    domain, shape, axis = site.index.domain, site.input.shape, gather_axis(site)
    if domain is None or domain.ranks_of_positions_in is None or axis is None:
        return None
    here = shape.dims[axis]
    if not must_equal(here, domain.ranks_of_positions_in) or not must_exceed(here, domain.size):
        return None
    return Violation(
        CODE, SEVERITY,
        f"index values are {domain.origin}: ranks {_below(domain.size)} of the positions among "
        f"themselves, not positions in dim {site.dim} ({dim_text(here)}) of {named(site.input)}; "
        f"{site.op.spelled}() silently uses only its first {dim_text(domain.size)} entries there; "
        f"sort the positions instead (`torch.sort(...).values`) and keep argsort's order for tensors laid out "
        f"like them",
    )


def _below(k) -> str:
    return f"0..{value(k) - 1}" if value(k) is not None else f"0..{dim_text(k)}-1"


def violation(site: Site, origin: str, meant: str, want: int, certain_raise: bool, fix_dim=None) -> Violation:
    """The GL004 report: values made for dim `want` of the input used along site.dim (static and runtime)."""
    shape = site.input.shape
    here = shape.dims[gather_axis(site)]
    suggested = want - len(shape.dims) if site.dim < 0 else want
    effect = (
        "torch raises 'index out of bounds' (a device-side assert on CUDA)"
        if certain_raise
        else "torch raises 'index out of bounds' when a value exceeds that dim (a device-side assert on CUDA), "
        "and silently reads the wrong entries when all values fit"
    )
    return Violation(
        CODE, SEVERITY,
        f"index values are {origin}, which index {meant} dim {want} ({dim_text(shape.dims[want])}) of "
        f"{named(site.input)}, but {site.op.spelled}() uses them along dim={site.dim} (size {dim_text(here)}); "
        f"{effect}; use dim={suggested}",
        fix_dim=fix_dim,
    )


def subscript_message(text: str, shape, axis: int, key: str, domain, want: int, certain_raise: bool) -> Violation:
    """`x[key]` whose key holds positions made for dim `want` of x, read along dim `axis` (plain indexing)."""
    here = shape.dims[axis]
    effect = (f"torch raises IndexError for any value past {dim_text(here)} - 1 (a device-side assert on CUDA) and "
              f"silently reads the wrong entries when all values fit" if certain_raise else
              "torch raises IndexError when a value exceeds that dim (a device-side assert on CUDA), and silently "
              "reads the wrong entries when all values fit")
    rows = ", ".join([":"] * want + [key])
    return Violation(
        CODE, SEVERITY,
        f"`{key}` holds {domain.origin}, which index dim {want} ({dim_text(shape.dims[want])}) of `{text}` {shape}, "
        f"but `{text}[...]` uses them along dim {axis} (size {dim_text(shape.dims[axis])}); {effect}; index dim "
        f"{want} instead (`{text}[{rows}]`)",
    )


def coordinates_message(text: str, shape, key: str, tops: tuple) -> Violation:
    """`x[key]` whose key's last dim holds one coordinate per leading dim of x (column j capped at dim j's last
    position), used as one key: every column indexes dim 0."""
    k = len(tops)
    return Violation(
        CODE, SEVERITY,
        f"`{key}` holds coordinates, one column per dim: its {k} columns are capped at {', '.join(map(str, tops))}, "
        f"the last positions of dims 0 to {k - 1} of `{text}` {shape}, but as one key `{text}[{key}]` reads every "
        f"column along dim 0 (size {dim_text(shape.dims[0])}); torch raises IndexError for a value past "
        f"{dim_text(shape.dims[0])} - 1 (a device-side assert on CUDA), and where all fit it silently returns "
        f"{k} rows per coordinate; index with the columns, one per dim (`{text}[{key}.unbind(-1)]`)",
        help=f"index with the columns, one per dim (`{text}[{key}.unbind(-1)]`)",
    )


def _laid_out_for(site: Site, want: int) -> bool:
    """The index has the input's shape on every dim but `want` (`topk(k, dim=-1)` of a tensor shaped like
    the input): the per-position layout for dim `want`, so using the values along another dim is the
    mistake even when the sizes agree only as numbers."""
    idx, shape = site.index.shape, site.input.shape
    if site.op.family not in ("gather", "scatter") or idx is None or idx.variadic or len(idx.dims) != len(shape.dims):
        return False
    return all(must_equal(a, b) for k, (a, b) in enumerate(zip(idx.dims, shape.dims)) if k != want)


def _reads_whole_rows(site: Site, want: int) -> bool:
    """Offer the dim change only where it is the whole fix: with it, the index matches the input on
    every other dim (the per-position idiom), so nothing else needs reshaping."""
    idx, shape = site.index.shape, site.input.shape
    if site.op.family not in ("gather", "take_along_dim") or idx is None or idx.variadic:
        return site.op.family == "index"
    if len(idx.dims) != len(shape.dims):
        return False
    return all(must_equal(a, b) for k, (a, b) in enumerate(zip(idx.dims, shape.dims)) if k != want)
