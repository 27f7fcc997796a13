"""Abstract values the interpreter tracks. ``None`` always means "unknown"."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional, Tuple

from ..contract import Domain
from ..dims import Dim, Shape, join_dim, join_shape


@dataclass(frozen=True)
class TensorVal:
    shape: Optional[Shape] = None
    dtype: Optional[str] = None
    domain: Optional[Domain] = None
    origin: str = ""  # where the shape fact came from, e.g. "comment line 12"
    kept_singleton: Optional[int] = None  # axis of a size-1 dim a gather left in place (GL006)
    kept_at: object = None  # the gather call that left it (an ast node), where GL006 reports and fixes
    shift: Optional[tuple] = None  # (axis, "drop_last" | "drop_first") from slicing one end off (GL007)
    filled: Optional[str] = None  # "zeros", "empty", "ones" or "full" straight from a constructor (constant_fills)
    crossed: Optional[tuple] = None  # x[:, idx] with idx one per row, not yet shown to be a mistake (GL017)
    normalised: Optional[object] = None  # the softmax that made it: a normalised_consumers.Mark (GL018)
    interval: Optional[object] = None  # values between two known ends: a value_intervals.Interval (GL011)
    written: Optional[object] = None  # the rows of an int literal: a written_rows.Rows (GL011)
    columns: Optional[object] = None  # coordinates from nonzero(): a flat_positions.Coordinates (GL011)
    non_negative: bool = False  # values >= 0 (relu, softmax, exp, abs): a max onto zeros is the max (GL014)
    signed: bool = False  # values that may be below 0 by the code's evidence (randn, Linear, log): signs.py (GL014)
    left_padded: Optional[int] = None  # a left-padded batch, its mask, counts, counts - 1: the padding's line (GL024)
    order: Optional[tuple] = None  # (token, axis): entries sit in a permutation's order along axis (GL027)
    permutation: Optional[tuple] = None  # (token, axis): the values are that permutation, sort's indices (GL027)
    entries: Optional[object] = None  # every value of a small int or bool tensor: an exact_values.Entries (GL003, GL011)
    most_rank: Optional[int] = None  # of a tensor whose shape is unknown: the most dims it can have (`table[key]`)
    dropped: Optional[object] = None  # a reduction's result whose dim is gone, not kept: a dropped_dims.Dropped (GL029)
    run_starts: Optional[str] = None  # a mask of where runs of equal neighbours start: run_starts.py (GL013)
    spread: Optional[tuple] = None  # axes an expand or repeat spread from size 1: one value copied along each (GL019)
    bounds: Optional[tuple] = None  # of a bool mask: the mask_bounds.Bound each row it keeps satisfies (GL011)
    column_intervals: Optional[tuple] = None  # ((k, value_intervals.Interval), ...): rows kept within bounds (GL011)
    exact_dtype: Optional[str] = None  # the dtype the code makes for certain; stale when not dtype (dtype_certainty)
    parts: Optional[tuple] = None  # (axis, shape, (Domain, ...)): the ranges of a stack's pieces (stacked_parts)
    distinct_along: Optional[tuple] = None  # (axis, shape): topk/sort/argsort positions, once each along axis
    single_along: Optional[tuple] = None  # (axis, shape): a mask true at most once along axis (distinct_lines)

    def with_(self, **changes) -> "TensorVal":
        return replace(self, **changes)


@dataclass(frozen=True)
class LayerVal:
    """An nn.Embedding(num, dim) or nn.Linear(in_features, out_features) built in __init__."""

    kind: str  # "Embedding", "EmbeddingBag" or "Linear"
    first: Dim  # num_embeddings / in_features
    second: Dim  # embedding_dim / out_features

    @property
    def table(self) -> bool:
        """A lookup table of `first` rows (Embedding, EmbeddingBag), read at integer ids."""
        return self.kind in ("Embedding", "EmbeddingBag")

    @property
    def weight(self) -> "TensorVal":
        dims = (self.first, self.second) if self.table else (self.second, self.first)
        return TensorVal(Shape(dims), None, None, f"nn.{self.kind} weight")

    def apply(self, x) -> Optional["TensorVal"]:
        # learned weights of both signs: the outputs may be below 0 (GL014)
        if self.kind == "EmbeddingBag":
            # one row per bag: the rows of a 2-d input, or as many bags as offsets for a 1-d one
            rows = x.shape.dims[0] if isinstance(x, TensorVal) and x.shape is not None and not x.shape.variadic \
                and len(x.shape.dims) == 2 else None
            return TensorVal(Shape((rows, self.second)), signed=True)
        if self.kind == "Embedding" and (x is None or isinstance(x, TensorVal) and x.shape is None) \
                and self.second is not None:
            return TensorVal(Shape((self.second,), variadic=True), signed=True)  # ids of any shape: the last dim is the width
        if not isinstance(x, TensorVal) or x.shape is None:
            return TensorVal(None, signed=True)  # a tensor of unknown shape: `embed(ids) + pos` is not shaped like `pos`
        if self.kind == "Embedding":
            return None if x.shape.variadic else TensorVal(Shape(x.shape.dims + (self.second,)), signed=True)
        dims = x.shape.dims
        return TensorVal(Shape(dims[:-1] + (self.second,), x.shape.variadic), signed=True) if dims else None


@dataclass(frozen=True)
class DimVal:
    """A Python int that is (or may be) a tensor dimension."""

    dim: Dim


@dataclass(frozen=True)
class SeqVal:
    """A tuple/list/torch.Size whose items are tracked (shapes, topk's (values, indices))."""

    items: Tuple[object, ...]
    names: Tuple[str, ...] = ()  # attribute names, e.g. ("values", "indices")


@dataclass(frozen=True)
class QualName:
    """A module or function reached through imports: 'torch', 'torch.gather', 'numpy'."""

    name: str


@dataclass(frozen=True)
class Literal:
    """A Python constant that is not a dim: float, str, bool, None."""

    value: object


UNKNOWN_ARITY = Literal("<*args of unknown length>")  # `f(*args)`: poisons size arguments, no shape comes out


def join(a, b):
    """What two control-flow paths agree on."""
    if a == b:
        return a
    if isinstance(a, TensorVal) and isinstance(b, TensorVal):
        return TensorVal(
            join_shape(a.shape, b.shape),
            a.dtype if a.dtype == b.dtype else None,
            a.domain if a.domain == b.domain else (_zeros_or_binary(a, b) or _fill_kept(a, b)),
            a.origin if a.origin == b.origin else "",
            left_padded=_left_padded(a, b),
            dropped=_dropped_on_both(a, b),
        )
    if isinstance(a, DimVal) and isinstance(b, DimVal):
        return DimVal(join_dim(a.dim, b.dim))  # an int on both paths: an int, its value known when they agree
    if isinstance(a, SeqVal) and isinstance(b, SeqVal) and a.names == b.names and len(a.items) == len(b.items):
        return SeqVal(tuple(join(x, y) for x, y in zip(a.items, b.items)), a.names)  # `return logits, loss` / `logits, None`
    joiner = JOINERS.get(type(a)) or JOINERS.get(type(b))
    return joiner(a, b) if joiner is not None else None


# how buffer_writes.py names the values of a buffer of zeros written into: zeros are among them by its own account
WRITTEN_INTO_ZEROS = "zeros and what was written into them: "


def _zeros_or_binary(a: TensorVal, b: TensorVal):
    """Zeros on one path, a 0/1 mask on the other (`mask[i] = 1` under an `if` in a loop): a 0/1 mask; zeros
    not yet written and zeros written into (a loop's first pass and the ones after): what the writes put in."""
    for zeros, mask in ((a, b), (b, a)):
        if zeros.filled == "zeros" and zeros.domain is None and mask.domain is not None and (
                mask.domain.binary or mask.domain.origin.startswith(WRITTEN_INTO_ZEROS)):
            return mask.domain
    return None


# how constant_ids.py names a constant fill, and present_values.py the fill once some entries are written over
ALL_EQUAL, INCLUDES = "values all equal to ", "values that include "


def _fill_kept(a: TensorVal, b: TensorVal):
    """A fill on one path and the same fill partly written over on the other (`out[i, :n] = row` in a loop): on
    both the fill is among the values."""
    for whole, part in ((a.domain, b.domain), (b.domain, a.domain)):
        if whole is not None and part is not None and whole.origin.startswith(ALL_EQUAL) \
                and replace(whole, origin=INCLUDES + whole.origin[len(ALL_EQUAL):]) == part:
            return part
    return None


def _dropped_on_both(a: TensorVal, b: TensorVal):
    """Both paths reduce away the same dim of a like tensor (`x.mean(dim)` or `(x * m).sum(dim) / m.sum(dim)`):
    the result lacks that dim whichever runs (GL029); the first path's reduction is the one named."""
    if a.dropped is None or b.dropped is None:
        return None
    return a.dropped if (a.dropped.axis, a.dropped.source) == (b.dropped.axis, b.dropped.source) else None


def _left_padded(a: TensorVal, b: TensorVal):
    """A buffer padded on the left on one path and still all padding (fresh from a constructor) on the other
    is padded on the left after both: rows written at their back in a loop, and rows not yet written."""
    if a.left_padded == b.left_padded:
        return a.left_padded
    if a.left_padded is not None and b.filled or b.left_padded is not None and a.filled:
        return a.left_padded or b.left_padded
    return None


def join_all(values):
    """What every one of several values (paths' returns, a list's items) agrees on; None for none."""
    result = None
    for i, value in enumerate(values):
        result = value if i == 0 else join(result, value)
    return result


# joins of the kinds defined in other modules (config.DictVal), registered there (no import circle); each
# checks both sides' kinds itself
JOINERS: dict = {}
