"""What torch accepts and what is silently wrong, as pure functions over a normalised call.

No libcst, no torch: the static half passes symbolic shapes, the runtime half concrete ones,
and both get the same codes and wording from the rules in :mod:`gather_lint.rules`.
"""
from __future__ import annotations

import re

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Optional

from .dims import Dim, Shape, normalize_dim
from .ops import Op

ERROR = "error"  # torch raises (or asserts on the device)
WARNING = "warning"  # torch runs and the result is silently wrong


@dataclass(frozen=True)
class Domain:
    """What an index's values can be: positions in a dim of ``size`` (``[0, size)``)."""

    size: Dim = None
    origin: str = ""  # how the values were made, for messages: "topk over dim 1 of scores"
    category: bool = False  # token ids / class labels / actions: index a vocabulary-like dim
    repeats: bool = False  # values can repeat (ids, labels, randint); topk/argsort/arange values cannot
    sentinel: Optional[int] = None  # a negative padding value the code certainly put in (-100, -1)
    sentinel_line: Optional[int] = None  # where it was put in
    made_float: Optional[str] = None  # what turned the values into floats: "the true division `/` at line 12"
    rounded: Optional[tuple] = None  # (dtype, exact limit, "`.half()` at line 9"): ints passed through a low-precision float
    # where the fix for made_float / rounded goes: the (line, col, end_line, end_col) span, 1-based
    # characters, of the true division `/` or of the `.half()` call (None when it is no such node)
    made_float_at: Optional[tuple] = None
    rounded_at: Optional[tuple] = None
    float_if_empty: Optional[str] = None  # why the index is float32 on inputs that leave its list empty
    # argsort of positions (`torch.argsort(topk_indices)`): the values rank the `size` positions among
    # themselves, while the positions they were taken from index a dim of this size
    ranks_of_positions_in: Dim = None
    # 0/1 values (a comparison cast to an integer type): `size` is 2, but they are no positions of a size-2 dim
    binary: bool = False
    # distinct within each of the stacked items they came from (rows of stacked permutations), though values
    # repeat across items: beside row numbers that tell the items apart, no two positions collide
    distinct_rows: bool = False
    # `ids.repeat(b, 1)` of values that do not repeat: the copies lie in other rows, and each line along one dim
    # holds the values once (a scatter along that dim writes each position once). The dim, counted from the end:
    # 1 the last (True reads as 1), 2 the one before (`[:, :, None]` added a dim after it); 0 (False) none
    copies_across_rows: int = 0
    # `size` is one past the largest value the code wrote out (a literal's entries), not the size of a dim the values
    # were made for: an index of 0..4 is no evidence of positions of a dim of 5
    bound_only: bool = False
    # with bound_only: the bound of a coordinate worked out from the code's own numbers (a clamp, a range filter),
    # which any point of the box can reach, so coordinates combined (`x * W + y`) reach their tops together
    box: bool = False
    # the items of this named sequence (`torch.tensor(centers)` of `doc_ids[i]` appended): two index tensors of
    # items of one sequence pair its ids, and those pairs recur wherever its ids do (bigrams, co-occurrences)
    items_of: Optional[str] = None
    # flat positions of a grid, `rows * stride + cols` (static/flat_positions.py): (R, stride, C, text) for row
    # numbers 0..R-1 (an arange) times the stride plus positions of a dim of size C (None until they are added)
    grid: Optional[tuple] = None
    # positions picked along this axis of a tensor in its own order, no sort applied (a multinomial draw, an argmax,
    # top-k picks): they index that order, not a sorted copy's (static/permutation_order.py, GL034)
    original_positions: Optional[int] = None


@dataclass
class TensorInfo:
    shape: Optional[Shape] = None
    dtype: Optional[str] = None  # torch dtype name without "torch.", e.g. "float32"
    domain: Optional[Domain] = None
    text: str = "tensor"  # how messages name it: source text or a role name
    shift: Optional[tuple] = None  # (axis, "drop_last" | "drop_first") left by x[:, :-1] / x[:, 1:] (static only)
    filled: Optional[str] = None  # "zeros" / "empty" / "ones" / "full" when just created so (static only)
    non_negative: bool = False  # values >= 0, as relu/softmax/exp/abs make them (static only)
    order: Optional[tuple] = None  # (token, axis): entries in a permutation's order (static only, GL027)
    permutation: Optional[tuple] = None  # (token, axis): the values are a sort's permutation (static only)
    signed: bool = False  # values that may be below 0, by the code's evidence (static only, GL014)
    role_named: bool = False  # text is a role name ("input", "self": runtime), not code a fix can read (last:
    # the fields before it are also given by position)


@dataclass
class Site:
    op: Op
    input: TensorInfo
    index: TensorInfo
    dim: Optional[int] = None  # literal dim as written (may be negative); None when unknown
    dim_given: bool = True  # False only for take_along_dim(dim=None)
    payload: Optional[TensorInfo] = None  # src / source tensor of scatter and index ops
    options: dict = field(default_factory=dict)  # literal keyword values: reduce, include_self, ...


@dataclass(frozen=True)
class Violation:
    code: str
    severity: str
    message: str
    fix_suffix: Optional[str] = None  # text that, appended to the index argument, fixes the call
    fix_dim: Optional[int] = None  # the dim the call should use (replaces a literal dim argument)
    fix_result_suffix: Optional[str] = None  # text appended after the whole call, with fix_suffix
    help: Optional[str] = None  # the fix sentence, when the message's last clause is not it (see notes.py)
    fix_keyword: Optional[str] = None  # a keyword argument the call should get: "include_self=False"
    # an edit where the index was made instead of at the call: (kind, span), e.g. ("floor_division", (3, 7, 3, 15))
    fix_cause: Optional[tuple] = None
    fix_statement: Optional[str] = None  # a rewrite of the flagged statement or call: "accumulate" (GL013)
    fix_argument: Optional[str] = None  # a positional argument the flagged call lacks: "-1" for `.squeeze()` (GL006)
    fix_rename: Optional[str] = None  # a keyword of the flagged call to rename: "source=src" (GL033)
    shown: Optional[str] = None  # the argument to underline when it is not the index: "src" (GL016)
    # the lines of the calls whose facts decided it, innermost first (static only): () for a function's own
    # facts; the analyzer names them once and prefers a finding of the function's own facts at the same site
    calls: tuple = ()


@dataclass
class RankedPair:
    """Input and index shapes with known, comparable ranks and the normalised gather axis."""

    input: Shape
    index: Shape
    axis: int
    rank: int = field(init=False)

    def __post_init__(self):
        self.rank = len(self.input.dims)


def gather_axis(site: Site) -> Optional[int]:
    """Normalised dim of the input, or None when the dim or the input's rank is unknown."""
    shape = site.input.shape
    if site.dim is None or shape is None or shape.variadic:
        return None
    return normalize_dim(site.dim, len(shape.dims))


def mark_axis(shape: Optional[Shape], dim: Optional[int]) -> Optional[int]:
    """The axis a layout mark names (GL027): normalised when the rank is known, else the dim as written."""
    if dim is None or shape is None or shape.variadic:
        return dim
    return normalize_dim(dim, len(shape.dims))


def is_empty(shape: Optional[Shape]) -> bool:
    """An index with a literal 0 dim: torch skips every rank and size check (torch-semantics S12)."""
    return shape is not None and any(d == 0 for d in shape.dims)


def ranked_pair(site: Site) -> Optional[RankedPair]:
    inp, idx = site.input.shape, site.index.shape
    axis = gather_axis(site)
    if axis is None or idx is None or idx.variadic or is_empty(idx):
        return None
    if len(inp.dims) != len(idx.dims):
        return None
    return RankedPair(inp, idx, axis)


def shape_text(info: TensorInfo) -> str:
    return str(info.shape) if info.shape is not None else "?"


ROLE_NAMES = {"tensor", "input", "index", "src", "source", "self"}  # runtime names: no source text


def named(info: TensorInfo) -> str:
    """`text` [shape] for messages; just the shape when the text is only a role name (runtime)."""
    if info.text in ROLE_NAMES:
        return shape_text(info)
    return f"`{info.text}` {shape_text(info)}"


def padding_source(domain: Domain) -> str:
    """' (set at line 12)' for a padding value whose origin is known, for messages."""
    return f" (set at line {domain.sentinel_line})" if domain.sentinel_line else ""


_CALLERS_SIZES = [False]  # on while a site is checked with a caller's facts (sizes_by_name)


@contextmanager
def sizes_by_name(on: bool = True):
    """While on, size_expr writes a size as the tensor's own (`x.size(1)`), never as a number or a name the
    facts brought: under one caller's facts those are that caller's, wrong for another or undefined here."""
    before = _CALLERS_SIZES[0]
    _CALLERS_SIZES[0] = on
    try:
        yield
    finally:
        _CALLERS_SIZES[0] = before


def size_expr(info: TensorInfo, axis: int) -> str:
    """Source text for input.size(axis): a variable that holds the size, else the tensor's own size when the
    tensor is a name (`features.size(1)`: right for every size it may have), else the literal, else a
    .size() call on the expression."""
    d = info.shape.dims[axis] if info.shape is not None else None
    if _CALLERS_SIZES[0]:
        return f"{info.text}.size({axis})"
    if d is not None and not isinstance(d, int) and d.expr:
        return d.expr
    if info.text and not info.role_named and _PLAIN_NAME.fullmatch(info.text):
        return f"{info.text}.size({axis})"
    if isinstance(d, int):
        return str(d)
    if d is not None and d.size is not None:
        return str(d.size)
    return f"{info.text}.size({axis})"


_PLAIN_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")

