"""Where index values that can repeat come from, beyond names and randint (GL013's evidence).

A write without accumulation loses data only when two index entries name one position. The
many-to-one maps that make such indices are few and recognisable:

* floats turned into integers (`(xyz / voxel).long()`, `torch.floor(p * n).long()`,
  `.round().int()`): quantised coordinates, pixel, voxel and bin indices, where many points share a cell;
* integer floor division and remainder (`ids // k`, `ids % n`): k (or many) values share a result;
* `argmax`/`argmin` over a dim: one pick per row, and different rows pick the same class;
* arithmetic combining only such values (`ys * W + xs`, `labels + 1`): a raveled multi-index repeats
  whenever its components repeat together (one unique component, e.g. `arange`, would make it unique,
  so every tensor operand must carry the mark).
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Optional

from ..contract import Domain
from ..dims import value
from . import arange_positions
from .interp_helpers import _is_float
from .tensor_ops import FLOAT_DTYPES, new_axes, whole_slice
from .values import DimVal, Literal, SeqVal, TensorVal
from .tree_walk import int_literal
from .written_rows import from_written
from .last_assignment import last_assigned
from .exact_values import COPIED, WORKED_OUT

_INT_DTYPES = ("int64", "int32", "int16", "int8", "uint8")
_TO_INT = ("long", "int", "to", "type", "short")
_PICKS = ("argmax", "argmin")


def repeats(t) -> bool:
    """An integer tensor whose values can repeat."""
    return isinstance(t, TensorVal) and t.dtype not in ("bool", "uint8") and t.domain is not None and t.domain.repeats


def named_only(t: TensorVal) -> bool:
    """Repeats known from the variable's name alone (names.category_domain), not from how it was made."""
    return t.domain.origin.startswith("ids/labels (`")


def maybe_mask(t: TensorVal) -> bool:
    """A subscript key whose repeats only its singular name says (`target`, `label`, `action`) and whose dtype is
    unknown: such a name holds one value, or a boolean mask (the particles inside a region), as often as a vector
    of ids; neither repeats. A plural name (`ids`, `labels`) says many ids."""
    if t.dtype is not None or not named_only(t):
        return False
    name = t.domain.origin[len("ids/labels (`"):].split("`")[0]
    return name.rsplit("_", 1)[-1] in _SINGULAR


_SINGULAR = frozenset({"target", "label", "action", "act", "token"})


def copied(t: TensorVal) -> bool:
    """Repeats known from repeat_interleave/repeat/tile copying each value (_copies)."""
    return t.domain.origin.startswith(_COPIED_ORIGIN)


def copied_by(t: TensorVal) -> str:
    """The op that copied the values (`repeat_interleave`, `repeat`, `tile`) of a copied() tensor."""
    return t.domain.origin[len(_COPIED_ORIGIN):].strip().split("(")[0]


def literal_only(t: TensorVal) -> bool:
    """Repeats known from a literal list alone (literal_repeats): a count of entries says more, when known."""
    return t.domain.origin.startswith((_LITERAL_ORIGIN, WORKED_OUT)) or f"; {_LITERAL_ORIGIN}" in t.domain.origin
    # (exact_values' origin names the largest written value first)


def after_mask(picked, key):
    """`x[mask]` of a literal's values, one of them twice: the mask may keep one of the two, so the literal no
    longer shows a repeat (repeats made by an op, or named, are as likely in any part)."""
    if not (isinstance(picked, TensorVal) and isinstance(key, TensorVal) and key.dtype == "bool"
            and picked.domain is not None and picked.domain.repeats
            and (literal_only(picked) or not picked.domain.origin or from_written(picked))):
        return picked
    return picked.with_(domain=replace(picked.domain, repeats=False, origin=""))


def one_row(owner, key, picked):
    """`table[0]` of a table whose repeats lie across its rows (`[[0, 1, 2], [2, 0, 1]]`): one row names each
    value once."""
    if across_rows(owner) and isinstance(key, DimVal) and isinstance(picked, TensorVal) and picked.domain is not None:
        return picked.with_(domain=replace(picked.domain, repeats=False, copies_across_rows=False))
    return picked


_WITHIN_ROW = " twice in one row ("  # how _table_repeats names a value a literal table repeats within a row


def one_column(owner, key, picked):
    """`table[:, k]` of a literal table whose repeats lie within its rows (`[[0, 0, 3, 7]]`): one entry per row,
    none of the row's repeats. Whether the column repeats across rows is not known here, so it claims none."""
    if not (isinstance(owner, TensorVal) and owner.domain is not None and _LITERAL_ORIGIN in owner.domain.origin
            and _WITHIN_ROW in owner.domain.origin and isinstance(picked, TensorVal) and picked.domain is not None
            and isinstance(key, SeqVal) and not key.names and len(key.items) == 2 and whole_slice(key.items[0])
            and isinstance(key.items[1], DimVal) and isinstance(key.items[1].dim, int)):
        return picked
    return picked.with_(domain=replace(picked.domain, repeats=False, origin="", copies_across_rows=False))


def _marked(t: TensorVal, origin: str) -> TensorVal:
    base = t.domain or Domain()
    # an origin already there (randint) says more than the op that kept it; a name alone (`word_ids`) says
    # less than how the values were made, and would leave the repeats a guess (named_only)
    if _distinct_made(base):
        origin, kept = f"{origin}, of {base.origin}", False  # the copies are what repeats: said first, the values after
    else:
        kept = base.origin and not (base.repeats and named_only(t))
    return t.with_(domain=replace(base, repeats=True, origin=base.origin if kept else origin, copies_across_rows=False))


def _grouped_last_coordinates(owner: TensorVal, result: TensorVal) -> bool:
    """A 1-d vector of coordinates along the last dim of a nonzero() viewed as rows."""
    columns = owner.columns
    return columns is not None and columns.axis is not None and columns.axis == len(columns.sizes) - 1 \
        and len(columns.sizes) > 1 and owner.shape is not None and len(owner.shape.dims) == 1 \
        and result.shape is not None and not result.shape.variadic and len(result.shape.dims) == 2 \
        and result.domain is not None and result.domain.repeats


def _distinct_made(domain: Domain) -> bool:
    """Values an arange made, each once: the op copying them is what makes them repeat, and says so."""
    return not domain.repeats and domain.origin.startswith(arange_positions.ORIGIN)


def after_method(method: str, owner, result, node: ast.Call, kwargs=None):
    """`.long()` of floats (quantised coordinates), argmax/argmin picks, bucket numbers, unique's
    inverse; other results unchanged. Also used for `torch.<method>(owner, ...)`."""
    if method in ("unique", "unique_consecutive") and isinstance(owner, TensorVal):
        return _unique(method, owner, result, node, kwargs or {})
    if not isinstance(result, TensorVal) or not isinstance(owner, TensorVal):
        return result
    if method == "searchsorted":
        return searched(owner, result, node)
    if method in ("view", "reshape") and _grouped_last_coordinates(owner, result):
        # `mask.nonzero()[:, -1].view(B, K)`: each row of the view is one group of hits, where a coordinate
        # along the last dim appears once; across groups they recur, which rows of the view keep apart
        return result.with_(domain=replace(result.domain, repeats=False))
    if method == "bucketize":
        return _marked(result, f"bucket numbers from {method}() at line {node.lineno}, shared by every value in a bucket")
    if method in _VIEWS and owner.filled == "zeros" and result.filled is None:
        result = result.with_(filled="zeros")  # flat = grid.view(-1) writes into the zeros grid
    if method in _TO_INT and result.dtype in _INT_DTYPES and (owner.dtype in FLOAT_DTYPES or _made_of_floats(node.func.value)):
        return _marked(result, f"coordinates rounded from floats (`.{method}()` at line {node.lineno})")
    if method == "repeat" and _like_expand(owner, node):
        method = "expand"  # `idx.unsqueeze(1).repeat(1, D)` copies along the size-1 dim only: expand's values
    if method in _TILES and result.dtype in _INT_DTYPES + (None,) and _copies(method, node):
        marked = _marked(result, f"{_COPIED_ORIGIN} {method}() at line {node.lineno}, each several times")
        if method == "repeat" and not repeats(owner) and _last_count_one(node):
            return marked.with_(domain=replace(marked.domain, copies_across_rows=1))
        return marked
    if method in _VIEWS and _rows_of_picks_joined(owner, result):
        joined = f"{owner.domain.origin} with the rows joined (`.{method}()` at line {node.lineno}), where rows pick alike"
        return result.with_(domain=replace(owner.domain, repeats=True, origin=joined))
    if across_rows(owner) and result.domain is not None and (kept := _line_dim_kept(method, owner, node)):
        return result.with_(domain=replace(result.domain, copies_across_rows=kept))  # idx.unsqueeze(-1).expand(...)
    if across_rows(owner) and method not in _KEEPS_ROWS and isinstance(result, TensorVal) and result.domain is not None:
        result = result.with_(domain=replace(result.domain, copies_across_rows=False))  # .view(-1) joins the rows
    if method in _PICKS and result.domain is not None:
        return _marked(result, f"one {method}() pick per row (line {node.lineno})")
    if repeats(owner) and not repeats(result) and result.dtype in _INT_DTYPES + (None,) and method in _KEEPS_VALUES:
        made = result.domain  # a narrowing cast's wrap-around (`.to(torch.uint8)`) stays with the values
        return result.with_(domain=owner.domain if made is None or made.rounded is None else
                            replace(owner.domain, rounded=made.rounded, rounded_at=made.rounded_at))
    return result


_VIEWS = ("view", "reshape", "flatten")
_ROW_PICKS = tuple(f"positions from {op}() over dim" for op in ("topk", "sort", "argsort"))


def _rows_of_picks_joined(owner, result) -> bool:
    """topk / sort indices [N, k]: distinct within a row, but every row picks among the same positions, so
    once the rows are joined (`.view(-1)`) a position stands once per row that picked it."""
    if not (isinstance(result, TensorVal) and isinstance(owner, TensorVal) and owner.domain is not None
            and owner.domain.origin.startswith(_ROW_PICKS) and not owner.domain.repeats):
        return False
    rows, joined = owner.shape, result.shape
    return rows is not None and not rows.variadic and len(rows.dims) >= 2 and value(rows.dims[0]) != 1 \
        and joined is not None and not joined.variadic and len(joined.dims) < len(rows.dims)


# ops that keep each row along the last dim as it was
_KEEPS_ROWS = ("contiguous", "clone", "detach", "to", "long", "int", "cpu", "cuda", "type")


def across_rows(t) -> bool:
    """Copies made by `.repeat(..., 1)` lie in other rows: along the last dim each value is there once."""
    return isinstance(t, TensorVal) and t.domain is not None and t.domain.copies_across_rows


def _line_dim_kept(method: str, owner: TensorVal, node: ast.Call) -> int:
    """The dim (from the end) along which owner's lines hold each value once, after `owner.<method>(...)`: a dim
    added after it moves it one further from the end; expand only copies along dims of size 1. 0: not known."""
    from_end = int(owner.domain.copies_across_rows)
    if method in ("expand", "expand_as"):
        return from_end
    shape = owner.shape
    if not isinstance(node.func, ast.Attribute) or shape is None:
        return 0
    if method in ("t", "transpose", "permute") and not shape.variadic:  # the dim moves where the reordering sends it
        rank = len(shape.dims)
        if not 0 <= rank - from_end < rank:
            return 0
        order = [int_literal(a) for a in node.args] if method == "permute" else (
            [1, 0] if method == "t" and rank == 2 else _swapped(rank, [int_literal(a) for a in node.args]))
        if order is None or None in order or sorted(o % rank for o in order) != list(range(rank)):
            return 0
        return rank - [o % rank for o in order].index(rank - from_end)
    if method != "unsqueeze" or len(node.args) != 1:
        return 0
    dim = int_literal(node.args[0])
    if dim == -1:
        return from_end + 1
    if dim is None or shape.variadic or not 0 <= dim <= len(shape.dims):
        return 0
    return from_end + 1 if dim > len(shape.dims) - from_end else from_end


def _swapped(rank: int, dims: list) -> Optional[list]:
    """The order `transpose(a, b)` leaves the dims of a rank-`rank` tensor in."""
    if len(dims) != 2 or None in dims or not all(-rank <= d < rank for d in dims):
        return None
    order = list(range(rank))
    a, b = dims[0] % rank, dims[1] % rank
    order[a], order[b] = order[b], order[a]
    return order


def after_new_axes(owner, key, picked):
    """`idx[:, :, None]` of an index whose lines along a dim hold each value once: the dim, counted anew."""
    if not across_rows(owner) or not isinstance(picked, TensorVal) or picked.domain is None \
            or owner.shape is None or owner.shape.variadic:
        return picked
    nones = new_axes(key)
    if nones is None:
        return picked
    axis, rank = len(owner.shape.dims) - int(owner.domain.copies_across_rows), len(owner.shape.dims)
    # a new dim lands before the kept one when no more than `axis` written dims come before it
    before = sum(1 for k, is_none in enumerate(nones) if is_none and nones[:k].count(False) <= axis)
    return picked.with_(domain=replace(picked.domain, copies_across_rows=rank + nones.count(True) - (axis + before)))


def rows_hold_once(index, dim_node) -> bool:
    """A scatter or gather along the last dim (-1, or the rank less one when known) of an index whose copies
    lie in other rows (`arange(n).repeat(b, 1)`): each row names a position once, so nothing collides."""
    if not across_rows(index) or dim_node is None:
        return False
    dim, from_end = int_literal(dim_node), int(index.domain.copies_across_rows)
    s = index.shape
    return dim == -from_end or (dim is not None and s is not None and not s.variadic and dim == len(s.dims) - from_end)


def one_entry_per_line(interp, index, index_node, dim_node) -> bool:
    """A scatter along dim d of an index whose size along d is 1 (`target.unsqueeze(-1)`, a [n, 1] index along
    1): each line of positions along d receives one entry, so no two entries name one position, whatever
    the values. The size is read from the index's shape, or, its rank unknown, from how it was made: an
    `unsqueeze(d)` (or `[..., None]` for the last dim), written in the call or last bound to its name."""
    dim = int_literal(dim_node) if dim_node is not None else None
    if dim is None:
        return False
    s = index.shape if isinstance(index, TensorVal) else None
    if s is not None and (s.variadic and dim < 0 or not s.variadic and -len(s.dims) <= dim < len(s.dims)):
        return value(s.at(dim)) == 1
    made = index_node
    if isinstance(made, ast.Name):
        made = last_assigned(interp, made.id, made.lineno)
    if isinstance(made, ast.Call) and isinstance(made.func, ast.Attribute) and made.func.attr == "unsqueeze" \
            and len(made.args) == 1 and not made.keywords:
        return int_literal(made.args[0]) == dim
    if isinstance(made, ast.Subscript) and isinstance(made.slice, ast.Tuple) and len(made.slice.elts) == 2 and dim == -1:
        first, last = made.slice.elts
        return isinstance(first, ast.Constant) and first.value is Ellipsis \
            and isinstance(last, ast.Constant) and last.value is None
    return False


def _last_count_one(node: ast.Call) -> bool:
    """`ids.repeat(*batch_shape, 1)`, `ids.repeat(b, 1)`: the method form, its last count written as 1."""
    if not isinstance(node.func, ast.Attribute) or (isinstance(node.func.value, ast.Name) and node.func.value.id == "torch"):
        return False
    counts = _spread(node.args)
    return len(counts) > 1 and int_literal(counts[-1]) == 1


def _spread(counts) -> list:
    """Counts given one by one (`repeat(1, D)`) or as one tuple (`repeat((1, D))`), as a list."""
    counts = list(counts)
    return list(counts[0].elts) if len(counts) == 1 and isinstance(counts[0], (ast.Tuple, ast.List)) else counts


_TILES = ("repeat_interleave", "repeat", "tile")


def _like_expand(owner: TensorVal, node: ast.Call) -> bool:
    """`x.repeat(1, D)` (the method form) where every count above 1 is on a dim of size 1: the same values as
    `x.expand(-1, D)`, each copy in another entry of that dim only."""
    dims = owner.shape.dims if owner.shape is not None and not owner.shape.variadic else None
    counts = _spread(node.args)
    if node.keywords or not counts or not isinstance(node.func, ast.Attribute):
        return False
    if dims is None:  # `x.unsqueeze(-1).repeat(1, D)`: the dim unsqueeze made is the last, and the only one copied
        made = node.func.value
        at = int_literal(made.args[0]) if isinstance(made, ast.Call) and isinstance(made.func, ast.Attribute) \
            and made.func.attr == "unsqueeze" and len(made.args) == 1 else None
        last = len(counts) - 1
        return at in (-1, last) and all(int_literal(c) == 1 for c in counts[:-1])
    return len(counts) == len(dims) and all(int_literal(c) == 1 or value(d) == 1 for c, d in zip(counts, dims))


def _copies(method: str, node: ast.Call) -> bool:
    """`ids.repeat_interleave(k)`, `ids.repeat(k)`, `ids.tile((1, k))`: each value copied, unless every
    count is written as 1 (the method form; `torch.repeat_interleave(x, k)` passes x first)."""
    counts = node.args[1:] if isinstance(node.func, ast.Name) or (
        isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and node.func.value.id == "torch") else node.args
    counts = [k.value for k in node.keywords if k.arg in ("repeats", "dims")] or list(counts)
    if method == "repeat_interleave" and len(counts) > 1:
        counts = counts[:1]  # (repeats, dim)
    counts = _spread(counts)
    if not counts:
        return False
    return not all(isinstance(c, ast.Constant) and c.value == 1 for c in counts)


_UNIQUE_VALUES = "the distinct values of "  # how the origin of unique()'s values starts
# values mapped one-to-one onto slots (unique's inverse): equal values share a slot, and so do only equal values
RELABELLED = ", equal for equal values"


def relabelled(t) -> bool:
    return isinstance(t, TensorVal) and t.domain is not None and t.domain.origin.endswith(RELABELLED)


def searched(sequence, result: TensorVal, node: ast.Call) -> TensorVal:
    """searchsorted(sequence, values): bucket numbers, or, when the sequence is unique()'s distinct values, the
    positions among them: a relabelling, as unique's inverse is."""
    if isinstance(sequence, TensorVal) and sequence.domain is not None and sequence.domain.origin.startswith(_UNIQUE_VALUES):
        return _marked(result, f"positions among {sequence.domain.origin} (searchsorted() at line {node.lineno}){RELABELLED}")
    return _marked(result, f"bucket numbers from searchsorted() at line {node.lineno}, shared by every value in a bucket")


def _unique(method: str, owner: TensorVal, result, node: ast.Call, kwargs: dict):
    """`uniq, inverse = x.unique(return_inverse=True)`: the inverse maps every element to its
    value's slot, so duplicates of a value share one slot (voxel and cluster pooling)."""
    def flag(name: str) -> bool:
        v = kwargs.get(name)
        return isinstance(v, Literal) and v.value is True

    if not flag("return_inverse"):
        if isinstance(result, TensorVal):  # the sorted distinct values: what searchsorted() relabels against
            made = owner.domain if isinstance(owner, TensorVal) and owner.domain is not None else Domain()
            return result.with_(domain=replace(result.domain or Domain(), repeats=False,
                                               origin=f"{_UNIQUE_VALUES}{method}() at line {node.lineno}",
                                               made_float=made.made_float, made_float_at=made.made_float_at))  # floats stay floats
        return result
    shape = owner.shape if "dim" not in kwargs and owner.shape is not None and not owner.shape.variadic else None
    if isinstance(result, SeqVal) and len(result.items) > 1 and isinstance(result.items[1], TensorVal):
        shape = shape or result.items[1].shape  # unique(dim=d): one slot per slice along d, as the op table says
    origin = f"inverse indices of {method}() at line {node.lineno}{RELABELLED}"
    inverse = TensorVal(shape, "int64", Domain(None, origin=origin, repeats=True))
    items = (TensorVal(None, owner.dtype), inverse) + ((TensorVal(None, "int64"),) if flag("return_counts") else ())
    if isinstance(result, SeqVal) and len(result.items) == len(items):  # the op's own shapes (values: 1-d)
        items = (result.items[0], inverse) + tuple(result.items[2:])
    return SeqVal(items)


# ops that move, select or clamp values without making them distinct
_KEEPS_VALUES = ("clamp", "clamp_", "clip", "view", "reshape", "flatten", "squeeze", "unsqueeze", "contiguous",
                 "clone", "detach", "to", "long", "int", "cpu", "cuda", "expand", "expand_as", "masked_select")


def through_arith(left, right, symbol: Optional[str], result):
    """`a + b`, `a * k`, `a // k`, `a % n` on index values (see the module docstring)."""
    if not isinstance(result, TensorVal) or result.dtype not in _INT_DTYPES + (None,):
        return result
    tensors = [v for v in (left, right) if isinstance(v, TensorVal)]
    if not tensors or any(_is_float(v) for v in tensors):
        return result
    if symbol in ("+", "-") and len(tensors) == 2 and all(_digit(v) for v in tensors):
        # quotients and remainders added back together (`(i // 32) * 32 + (i % 32) // 4`) are a number written
        # in mixed radix: the digits repeat, the number need not
        return result
    if symbol in ("+", "-", "*") and all(repeats(v) for v in tensors) and not _name_says_half(tensors, symbol) and all(
            isinstance(v, (TensorVal, DimVal)) for v in (left, right)):
        # the origin explains the repeats; 0/1 values of a mask no longer describe the sum or product's values
        return _marked(result, _repeats_origin(tensors))
    if symbol in ("//", "%") and isinstance(left, TensorVal) and isinstance(right, DimVal):
        k = right.dim if isinstance(right.dim, int) else None
        if repeats(left):
            return _marked(result, left.domain.origin)
        if symbol == "//" and k is not None and k > 1:
            return _marked(result, f"`// {k}` quotients, which {k} values share")
    return result


def _name_says_half(tensors, symbol: Optional[str]) -> bool:
    """Two index tensors combined, one of which repeats only by its name (`expert_ids * capacity + location_ids`
    with location_ids handed in): whether the pairs repeat is not known, so neither is whether the sum does. A 0/1
    mask the code made, times anything, is 0 wherever the mask is: those zeros repeat whatever the other holds."""
    if len(tensors) != 2 or not any(named_only(v) for v in tensors):
        return False
    return not (symbol == "*" and any(v.domain.binary and not named_only(v) for v in tensors))


def through_cat(items, joined, dim, line: int):
    """`cat((coords, batch_ix), 1)` of pieces whose values can each repeat: so can the joined values (one piece
    of distinct values, `arange`, may make every row distinct, and leaves the result unmarked). Edge lists joined
    along their edges (`cat([edge_index, loops, extra], dim=1)`, a graph given self-loops or shortcuts without
    coalescing) hold an edge twice wherever two pieces share it: a pair of node ids can repeat."""
    tensors = [t for t in items if isinstance(t, TensorVal)]
    if isinstance(joined, TensorVal) and len(tensors) > 1 and _edge_lists_joined(tensors, joined, dim):
        return _marked(joined, f"the edges of {len(items)} edge lists joined by cat() at line {line} (an edge in two of "
                               f"them appears twice)")
    if not isinstance(joined, TensorVal) or not tensors or len(tensors) != len(items) or not all(repeats(t) for t in tensors):
        return joined
    return _marked(joined, _repeats_origin(tensors))


def _edge_lists_joined(tensors, joined, dim) -> bool:
    """Integer [2, E] pieces joined along E, one of them with node ids that repeat: lists of (source, target)
    pairs, a graph's edges or a sparse matrix's coordinates, appended without coalescing."""
    shape = joined.shape
    return (dim is not None and value(dim) in (1, -1) and shape is not None and not shape.variadic
            and len(shape.dims) == 2 and value(shape.dims[0]) == 2 and joined.dtype in _INT_DTYPES
            and any(repeats(t) for t in tensors))


def _repeats_origin(tensors) -> str:
    """What explains the repeats of values several repeating operands make: the first operand's origin that is not
    a mask's 0/1 (those no longer describe a sum, product or joined values)."""
    return next((t.domain.origin for t in tensors if not t.domain.binary), "values that can repeat")


def _digit(v: TensorVal) -> bool:
    """Values that are a quotient or a remainder (scaled or not) of some other values: a digit of a number."""
    return repeats(v) and v.domain.origin.startswith(("`// ", "`% "))


_ROUNDING = ("round", "floor", "ceil", "trunc")


def _made_of_floats(node) -> bool:
    """`(a / b).long()`, `x.round().long()`, `torch.floor(p * n).long()`: floats whatever the operands' dtypes."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("clamp", "clip"):
        node = node.func.value
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, ast.Div)
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in _ROUNDING:
            return True
        if name == "div" and any(k.arg == "rounding_mode" for k in node.keywords):
            return True
    return False


_LITERAL_MAKERS = ("tensor", "as_tensor", "LongTensor")
_LITERAL_ORIGIN = "a literal list naming"
_COPIED_ORIGIN = COPIED


def literal_repeats(func: str, node: ast.Call, made):
    """`torch.tensor([0, 1, 0, 3])`, `torch.tensor([vocab["the"], vocab["dog"], vocab["the"]])`: a flat
    list literal naming one value twice (the same constant, name or constant-keyed lookup) certainly
    holds a repeat: the index of a context window, a test batch with a shared class."""
    if func not in _LITERAL_MAKERS or not node.args or not isinstance(made, TensorVal) \
            or made.dtype not in _INT_DTYPES or not isinstance(node.args[0], (ast.List, ast.Tuple)):
        return made
    elements = node.args[0].elts
    if elements and all(isinstance(e, (ast.List, ast.Tuple)) for e in elements):
        return _table_repeats(node, elements, made)
    if len(elements) < 2 or not all(_pure(e) for e in elements):
        return made
    twice = _named_twice(elements)
    return made if twice is None else _marked(made, f"{_LITERAL_ORIGIN} `{twice}` twice (line {node.lineno})")


def _named_twice(elements):
    """The text of the first element written a second time, or None."""
    seen = set()
    for element in elements:
        key = ast.dump(element)
        if key in seen:
            return ast.unparse(element)
        seen.add(key)
    return None


def _table_repeats(node: ast.Call, rows, made):
    """`torch.tensor([[0, 2, 1], [0, 3, 2]])`: a value written twice in one row repeats along the rows' dim; one
    written in two rows only (a mesh's shared vertex) repeats across the rows, each row naming it once."""
    if not all(row.elts and all(_pure(e) for e in row.elts) for row in rows):
        return made
    within = next((t for t in (_named_twice(row.elts) for row in rows) if t is not None), None)
    if within is not None:
        return _marked(made, f"{_LITERAL_ORIGIN} `{within}` twice in one row (line {node.lineno})")
    across = _named_twice([e for row in rows for e in {ast.dump(x): x for x in row.elts}.values()])
    if across is None:
        return made
    marked = _marked(made, f"{_LITERAL_ORIGIN} `{across}` in several rows (line {node.lineno})")
    return marked.with_(domain=replace(marked.domain, copies_across_rows=1))


def _pure(node) -> bool:
    """A value that is the same wherever it is written twice in one list."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _pure(node.operand)
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Attribute):
        return _pure(node.value) or isinstance(node.value, ast.Name)
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, (ast.Name, ast.Attribute)) and isinstance(node.slice, ast.Constant)
    return False
