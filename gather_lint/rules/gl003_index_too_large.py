"""GL003 index too large: the index is larger than the tensor it reads or writes on a dim it may not exceed.

gather: ``index.size(d) <= input.size(d)`` for every ``d != dim``. scatter: the same against self,
and ``index.size(d) <= src.size(d)`` on every dim. take_along_dim: input and indices must broadcast
on every dim but ``dim``. index_add_/index_copy_: ``source`` must match self on every dim but
``dim``, and ``source.size(dim)`` must equal the number of indices. torch raises.

A write by advanced index, ``x[idx] = v``, needs ``v`` to broadcast to the selection ``x[idx]``
(``idx``'s shape followed by x's remaining dims): a value with 4 rows for 5 indices raises ``shape
mismatch: value tensor of shape [4, 16] cannot be broadcast to indexing result of shape [5, 16]``.
Sizes known as numbers on both sides are compared, and a whole multiple of a named size against that
size (``torch.cat([h, g])`` of two ``[M, C]`` pieces has ``2*M`` rows, never ``M``).

Where the lengths are counts only the data decides, the arguments' history can still settle it: src
rows made from a cut of the index's own entries (``kept = idx[:capacity]`` then
``out.index_add_(0, idx, expert(x[kept]))``, or ``means[idx.unique()]`` scattered at ``idx``) number
fewer than the indices whenever the cut leaves an entry out, which is what the cut is written for.
"""
from typing import Optional

from ..contract import ERROR, Site, Violation, gather_axis, named, ranked_pair
from ..dims import Sym, dim_text, kept_part, must_be_multiple, must_differ, must_exceed, must_scale_apart, normalize_dim, product, \
    value
from ..ops import GATHER, INDEX, SCATTER, TAKE_ALONG
from ._example import Example

CODE = "GL003"
NAME = "index-too-large"
SEVERITY = ERROR
FIX = None

EXAMPLES = [
    Example(
        title="index built for the wrong batch",
        bad="""
import torch
scores = torch.randn(4, 10)  # [B, N]
picks = torch.randint(10, (8, 3))
out = scores.gather(1, picks)
expected = torch.stack([scores[b, picks[b]] for b in range(4)])
""",
        good="""
import torch
scores = torch.randn(4, 10)  # [B, N]
picks = torch.randint(10, (4, 3))
out = scores.gather(1, picks)
expected = torch.stack([scores[b, picks[b]] for b in range(4)])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    family = site.op.family
    if family in (GATHER, SCATTER):
        return _gather_scatter(site)
    if family == TAKE_ALONG:
        return _take_along(site)
    if family == INDEX:
        return _index_source(site)
    return None


def _gather_scatter(site: Site) -> Optional[Violation]:
    pair = ranked_pair(site)
    if pair is None:
        return None
    role = "self" if site.op.family == SCATTER else "input"
    for axis in range(pair.rank):
        if axis != pair.axis and _larger(pair.index.dims[axis], pair.input.dims[axis]):
            return Violation(
                CODE, SEVERITY,
                f"index {named(site.index)} is larger than {role} {named(site.input)} on dim {axis} "
                f"({_compared(pair.index.dims[axis], pair.input.dims[axis])}); torch raises "
                f"'Size does not match at dimension {axis}'; the index may exceed {role} only along dim={site.dim}",
            )
    src = site.payload
    if site.op.family == SCATTER and src is not None and src.shape is not None and not src.shape.variadic:
        src_dims = src.shape.dims or ((1,) if pair.rank == 1 else ())  # a 0-d src counts as [1]
        if len(src_dims) == pair.rank:
            for axis in range(pair.rank):
                i, s = pair.index.dims[axis], src_dims[axis]
                if _larger(i, s) or _one_for_many(i, s):
                    when = f" whenever {dim_text(i)} > 1" if _one_for_many(i, s) and not must_exceed(i, s) else ""
                    return Violation(
                        CODE, SEVERITY,
                        f"index {named(site.index)} is larger than src {named(src)} on dim {axis}; "
                        f"torch raises 'Expected index ... to be no larger size than src'{when}; "
                        f"index and src should have the same shape",
                    )
    return None


def _larger(a, b) -> bool:
    """a > b for certain: known sizes, or a whole multiple of a named size (`2*M` from a cat against `M`), or the
    whole of what a mask keeps a part of (E against `keep.sum()`)."""
    return must_exceed(a, b) or must_be_multiple(a, b) or kept_part(b, a)


def _one_for_many(index_dim, src_dim) -> bool:
    """A src of literal size 1 against a named index size (`scatter_add_(0, labels, torch.ones(1))`
    with labels `[N]`): a name in a shape is a size the author expects to vary, and torch does not
    broadcast src."""
    return src_dim == 1 and isinstance(index_dim, Sym) and index_dim.size is None


def _take_along(site: Site) -> Optional[Violation]:
    inp, idx = site.input.shape, site.index.shape
    axis = gather_axis(site)
    if axis is None or idx is None or idx.variadic or len(idx.dims) != len(inp.dims) or not site.dim_given:
        return None
    for k, (a, b) in enumerate(zip(inp.dims, idx.dims)):
        if k != axis and value(a) != 1 and value(b) != 1 and must_differ(a, b):
            return Violation(
                CODE, SEVERITY,
                f"{named(site.index)} does not broadcast with {named(site.input)} on dim {k} "
                f"({dim_text(b)} vs {dim_text(a)}); torch raises 'The size of tensor a must match the size "
                f"of tensor b'; make the sizes equal or 1",
            )
    return None


def _index_source(site: Site) -> Optional[Violation]:
    """index_add_/index_copy_: source matches self but at dim; one slice per index. 0-d counts as [1]."""
    src, inp, idx = site.payload, site.input.shape, site.index.shape
    if site.op.name == "index_fill":
        return None  # its value is a scalar (a 0-d tensor at most), written to every indexed slice
    if src is None or src.shape is None or src.shape.variadic or site.dim is None:
        return None
    if inp is None or inp.variadic:
        return _count_only(site, idx, src)  # self unknown: the count against the source's rows still holds
    if (len(inp.dims) == 0) != (len(src.shape.dims) == 0):
        return None  # exactly one side 0-d: the two ops disagree there; leave it to torch
    self_dims, src_dims = inp.dims or (1,), src.shape.dims or (1,)
    axis = normalize_dim(site.dim, len(inp.dims))
    if axis is None or len(self_dims) != len(src_dims):
        return None  # a bad dim is GL002's, different ranks GL001's
    for k, (a, b) in enumerate(zip(self_dims, src_dims)):
        if k != axis and must_differ(a, b):
            return Violation(
                CODE, SEVERITY,
                f"source {named(src)} differs from self {named(site.input)} on dim {k} "
                f"({dim_text(b)} vs {dim_text(a)}); {site.op.spelled}() raises: source must match self "
                f"on every dim but dim={site.dim}",
            )
    return _count(site, idx, src, src_dims, axis)


def _count_only(site: Site, idx, src) -> Optional[Violation]:
    """index_copy_(0, idx, h_all) into a buffer of unknown shape: source.size(dim) must still be len(idx)."""
    if not src.shape.dims:
        return None
    axis = normalize_dim(site.dim, len(src.shape.dims))
    return None if axis is None else _count(site, idx, src, src.shape.dims, axis)


def _count(site: Site, idx, src, src_dims, axis: int) -> Optional[Violation]:
    if idx is None or idx.variadic or len(idx.dims) > 1:
        return None
    count = product(idx.dims)  # a 0-d index is one index
    masked = kept_part(count, src_dims[axis]) or kept_part(src_dims[axis], count)
    if must_differ(count, src_dims[axis]) or must_scale_apart(count, src_dims[axis]) or masked:
        hint = "; one side holds what a mask keeps of the other's entries: select both with the mask" if masked else ""
        if must_be_multiple(src_dims[axis], count):
            hint = (f"; {dim_text(src_dims[axis])} is a whole multiple of {dim_text(count)}: pieces joined along "
                    f"dim {axis}, where another dim may have been meant")
        return Violation(
            CODE, SEVERITY,
            f"{dim_text(count)} indices for source {named(src)} with {dim_text(src_dims[axis])} slices on dim "
            f"{axis}; {site.op.spelled}() raises 'Number of indices should be equal to source.size(dim)'{hint}",
        )
    return None


def _compared(bigger, smaller) -> str:
    """`240 > 96` where one name was given two sizes by a call (`max_len` of two arguments), else the names."""
    a, b = dim_text(bigger), dim_text(smaller)
    if a == b and value(bigger) is not None and value(smaller) is not None:
        return f"{value(bigger)} > {value(smaller)}, both written {a}"
    return f"{a} > {b}"


def check_subscript_write(write: str, value_text: str, value_shape, selected, axis: int) -> Violation:
    """`x[idx] = v` where v cannot broadcast to what the advanced index selects: torch raises. `axis`:
    the dim of the selection (counted from the end) where the sizes clash."""
    return Violation(
        CODE, SEVERITY,
        f"`{write}` writes `{value_text}` of shape {value_shape} into the {selected} that the index selects "
        f"(dim {axis} of the selection: {dim_text(value_shape.dims[axis - len(selected.dims)])} vs "
        f"{dim_text(selected.dims[axis])}); torch raises 'shape mismatch: value tensor of shape ... cannot be "
        f"broadcast to indexing result of shape ...'; make the index select one row per value row, or the "
        f"value one row per selected position",
    )



def check_masked_source(count: int, shape, source_shape, have: int) -> Violation:
    """`x.masked_scatter(mask, source)` whose mask selects `count` positions of `shape` (the mask broadcast to x)
    while source holds `have` < count values: torch raises on CPU and reads past the source on CUDA."""
    return Violation(
        CODE, SEVERITY,
        f"masked_scatter: the mask selects {count} positions of a {shape} tensor but the source "
        f"{source_shape} has only {have} values; torch raises on CPU (and reads past the source on CUDA); "
        f"count the selected positions the way the source was made (or cut the mask to the {have} positions "
        f"the source has values for)",
    )


def check_masked_rows(target: str, shape, source: str, source_shape, width, source_width) -> Violation:
    """`x.masked_scatter(mask, source)` with a mask that selects whole rows of `width` values while the source's
    rows hold `source_width`: every selected row takes `width` consecutive source values."""
    return Violation(
        CODE, SEVERITY,
        f"masked_scatter: the mask selects whole rows of `{target}` {shape}, {width} values each, but the rows of "
        f"`{source}` {source_shape} hold {source_width}; each selected row takes the next {width} values of the "
        f"source, so rows are filled across source rows, silently (torch raises only when the source runs out); "
        f"make the source rows {width} wide (project the features to the model's width)",
    )


def check_cut_source(src_text: str, cut: str, index_text: str, whole: str, kind: str, op: str, scatter: bool,
                     shrunk: str) -> Violation:
    """The src's rows (or, `shrunk="index"`, the index's entries) were made from `cut`, a cut of the
    other side's own entries (`idx[:capacity]`, `codes.unique()`): the two lengths differ whenever the
    cut leaves an entry out. Found by the arguments' history (gather_lint/static/cut_rows.py)."""
    when = _cut_leaves_out(kind, whole)
    if shrunk == "src":
        told = "'Expected index ... to be no larger size than src'" if scatter else \
            "'Number of indices ... should be equal to source.size(dim)'"
        every = "every entry" if index_text == whole else f"one entry per entry of `{whole}`"
        return Violation(
            CODE, SEVERITY,
            f"src `{src_text}` has one row per entry of {cut}, but the index `{index_text}` has {every}: {op}() gets more indices than src rows whenever {when}, and torch raises "
            f"{told}; build the index from {cut}, the entries the rows were made for",
        )
    return Violation(
        CODE, SEVERITY,
        f"index `{index_text}` has one entry per entry of {cut}, but source `{src_text}` has one row per entry "
        f"of `{whole}`: {op}() gets fewer indices than source rows whenever {when}, and torch raises "
        f"'Number of indices ... should be equal to source.size(dim)'; make the source from the same cut",
    )


def check_cut_write(write: str, value_text: str, cut: str, key_text: str, whole: str, kind: str,
                    shrunk: str, augmented: str = "") -> Violation:
    """`out[idx] = v` with v's rows made from `cut`, a cut of idx's own entries (or idx the cut and v
    one row per entry of the whole): the selection and the value differ in rows whenever the cut
    leaves an entry out."""
    when = _cut_leaves_out(kind, whole)
    if shrunk == "value":
        told = f"`{value_text}` has one row per entry of {cut}, but `{key_text}` selects one row per entry of `{whole}`"
        fix = f"index with {cut}, the entries the rows were made for"
    else:
        told = f"`{key_text}` selects one row per entry of {cut}, but `{value_text}` has one row per entry of `{whole}`"
        fix = "make the value from the same cut"
    raised = "'The size of tensor a must match the size of tensor b'" if augmented else \
        "'shape mismatch: value tensor of shape ... cannot be broadcast to indexing result of shape ...'"
    return Violation(
        CODE, SEVERITY,
        f"`{write} {augmented}= ...`: {told}; whenever {when} (and more than one row is left), torch raises "
        f"{raised}; {fix}",
    )


def _cut_leaves_out(kind: str, whole: str) -> str:
    if kind == "unique":
        return f"`{whole}` repeats a value"
    return f"the {'mask' if kind == 'mask' else 'slice'} leaves an entry of `{whole}` out"
