"""Coordinates of nonzero entries combined into flat positions: `b * stride + i`.

`rows, cols = torch.where(mask)` of an [H, W] mask, or the columns of `mask.nonzero()`, are coordinates along
one dim each. A row-major flat position is `rows * W + cols`: the stride is the size of the dim the later
coordinate runs along. `rows * H + cols` (the rows' own size) is no flattening of [H, W] unless H == W (GL030).

`adj.nonzero()` of a [B, N, N] tensor gives one row per entry, column k a coordinate along dim k
(0 to size - 1). A batch of graphs flattened to [B * N, ...] is read at `edges[:, 0] * N + edges[:, 1]`;
a stride other than N (the batch size, a constant) reaches past the B * N rows when it is larger:
the last graph's last node sits at (B - 1) * stride + N - 1. Known sizes only: each column's range,
then the range of its product with a known stride and of the sum of two such ranges.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import Optional

from ..contract import Domain
from ..rules import gl030_flat_index_wrong_stride as rule
from ..dims import Sym, must_differ, must_equal, value
from . import distinct_lines, key_items, symbolic
from .tensor_ops import whole_slice
from .values import DimVal, SeqVal, TensorVal

_ORIGIN = "coordinates of "


@dataclass(frozen=True)
class Coordinates:
    sizes: tuple  # the size of each dim of the tensor whose nonzero entries these are
    what: str  # "`adj_matrix.nonzero()` at line 25"
    axis: Optional[int] = None  # a vector of coordinates along this dim; None: the [N, rank] table of them
    stride: object = None  # the coordinates along `axis` times this size (`rows * W`)


def after_method(method: str, owner, result, line: int, text: str, kwargs=None):
    """`x.nonzero()` / `torch.argwhere(x)`: rows of coordinates into x's dims (one vector per dim with as_tuple)."""
    if method == "nonzero" and isinstance(result, SeqVal):
        return per_dim(owner, result, line, f"{text}.nonzero(as_tuple=True)")
    if method not in ("nonzero", "argwhere") or not isinstance(owner, TensorVal) or not isinstance(result, TensorVal) \
            or owner.shape is None or owner.shape.variadic or result.shape is None:
        return result
    return result.with_(columns=Coordinates(owner.shape.dims, f"`{text}.{method}()` at line {line}"))


def column(owner, key, result):
    """`coords[:, k]`: coordinates along dim k, 0 to its size - 1."""
    found = owner.columns if isinstance(owner, TensorVal) else None
    if found is None or not isinstance(result, TensorVal) or not isinstance(key, SeqVal) or key.names \
            or len(key.items) != 2 or not whole_slice(key.items[0]) or not isinstance(key.items[1], DimVal):
        return result
    k = key.items[1].dim
    if not isinstance(k, int) or not -len(found.sizes) <= k < len(found.sizes):
        return result
    result = result.with_(columns=replace(found, axis=k % len(found.sizes)))  # GL030: coordinates along dim k
    size = found.sizes[k]
    if value(size) is None:
        return result
    origin = f"{_ORIGIN}{found.what} along dim {k % len(found.sizes)} (0 to {value(size) - 1})"
    # a 1-d mask's coordinates are its distinct positions; along one dim of several, a coordinate recurs
    return result.with_(domain=Domain(value(size), origin=origin, repeats=len(found.sizes) > 1))


def per_dim(mask, result, line: int, text: str):
    """`torch.where(mask)`, `mask.nonzero(as_tuple=True)`: the vector k holds coordinates along dim k."""
    result = distinct_lines.rows_named(mask, result)  # where(topk_ids == e): each row once
    if not isinstance(mask, TensorVal) or mask.shape is None or mask.shape.variadic or not isinstance(result, SeqVal) \
            or len(result.items) != len(mask.shape.dims):
        return result
    found = Coordinates(mask.shape.dims, f"`{text}` at line {line}")
    return replace(result, items=tuple(item.with_(columns=replace(found, axis=k)) if isinstance(item, TensorVal)
                                       else item for k, item in enumerate(result.items)))


def strided(node: ast.BinOp, left, right, result):
    """`rows * W`: coordinates along one dim times a size, kept to be checked where a later coordinate is added."""
    if not isinstance(node.op, ast.Mult) or not isinstance(result, TensorVal):
        return result
    for coords, size in ((left, right), (right, left)):
        found = coords.columns if isinstance(coords, TensorVal) else None
        if found is not None and found.axis is not None and found.stride is None and isinstance(size, DimVal) \
                and size.dim is not None:
            return result.with_(columns=replace(found, stride=size.dim))
    return result


def check_stride(interp, node: ast.BinOp, left, right) -> None:
    """GL030 at `rows * H + cols` of coordinates of an [H, W] tensor."""
    found = wrong_stride(node, left, right)
    if found is not None:
        rows, cols = found
        interp.flag(node, rule.check_flat(interp.source.segment(node), rows.what, rows.sizes, rows.axis, rows.stride,
                                          cols.axis), None)


def wrong_stride(node: ast.BinOp, left, right):
    """(row coordinates, their stride, the later coordinates) of `rows * H + cols` whose stride is the size of
    the rows' own dim, not of the dim the later coordinates run along: None when the stride is right, or the
    two sizes may be one (the same dim, a size 1)."""
    if not isinstance(node.op, ast.Add):
        return None
    for rows, cols in ((left, right), (right, left)):
        r = rows.columns if isinstance(rows, TensorVal) else None
        c = cols.columns if isinstance(cols, TensorVal) else None
        if r is None or c is None or r.stride is None or c.stride is not None or r.axis is None or c.axis is None \
                or r.what != c.what or c.axis != r.axis + 1 or c.axis != len(r.sizes) - 1:
            continue
        own, inner = r.sizes[r.axis], r.sizes[c.axis]
        if own is None or inner is None or value(own) == 1 or value(inner) == 1:
            continue
        if must_equal(r.stride, own) and not must_equal(r.stride, inner):
            return r, c
    return None


def through_arith(node: ast.BinOp, left, right, result, text: str):
    """`c * stride` and `c1 + c2` of coordinates: the largest value they can make, plus one."""
    if not isinstance(result, TensorVal):
        return result
    top = None
    if isinstance(node.op, ast.Mult):
        coords, stride = (left, right) if _coordinates(left) else (right, left)
        k = value(stride.dim) if isinstance(stride, DimVal) and stride.dim is not None else None
        if _coordinates(coords) and k is not None and k > 0:
            top = (value(coords.domain.size) - 1) * k
    elif isinstance(node.op, ast.Add) and _coordinates(left) and _coordinates(right):
        top = value(left.domain.size) - 1 + value(right.domain.size) - 1
    if top is None:
        return result
    origin = f"{_ORIGIN}{_sources(left, right)} combined into `{text}` (0 to {top})"
    return result.with_(domain=Domain(top + 1, origin=origin, repeats=True))


def _coordinates(t) -> bool:
    return isinstance(t, TensorVal) and t.domain is not None and t.domain.origin.startswith(_ORIGIN) \
        and isinstance(t.domain.size, int) and t.dtype not in ("bool", "float16", "bfloat16", "float32", "float64")


def _sources(left, right) -> str:
    for side in (left, right):
        if _coordinates(side):
            origin = side.domain.origin[len(_ORIGIN):]
            return origin.split(" along dim ")[0].split(" combined into ")[0]
    return ""


# Flat positions of a grid: `rows * stride + cols` with row numbers 0..R-1 (an arange, or copies of it) and
# positions of a dim of size C. A tensor [R, C] flattened row-major holds (r, c) at r * C + c: indexing its
# R * C entries with another stride reads, for every row after the first, another row's entries (a larger
# stride reaches past the end and raises; a smaller one lands rows on each other, silently).

_ROWS = "arange("  # arange_positions.ORIGIN: row numbers, also after repeat_interleave / [:, None] / expand


def grid_arith(node: ast.BinOp, left, right, result, text: str):
    """`rows * stride` and then `+ cols`: the grid fact (Domain.grid) the uses of the index check."""
    if not isinstance(result, TensorVal):
        return result
    if isinstance(node.op, ast.Mult):
        for rows, stride in ((left, right), (right, left)):
            count = _row_count(rows)
            if count is not None and isinstance(stride, DimVal) and stride.dim is not None and value(stride.dim) != 1:
                return _with_grid(result, (count, stride.dim, None, text))
    elif isinstance(node.op, ast.FloorDiv) and isinstance(right, DimVal):
        rows = _rows_of_flat(left, right.dim)
        if rows is not None:  # `flat // C` of positions of R * C entries: the row, 0..R-1
            return result.with_(domain=replace(result.domain or Domain(), size=rows))
    elif isinstance(node.op, ast.Add):
        for strided_rows, cols in ((left, right), (right, left)):
            grid = strided_rows.domain.grid if isinstance(strided_rows, TensorVal) and strided_rows.domain else None
            width = _column_count(cols)
            if grid is not None and grid[2] is None and width is not None:
                return _with_grid(result, (grid[0], grid[1], width, text))
    return result


def _rows_of_flat(t, width):
    """R for positions of a dim of R * width entries (a top-k over a flattened [R, width]), else None."""
    n = _column_count(t)
    if n is None or width is None or value(width) in (None, 0, 1) and not isinstance(width, Sym):
        return None
    if value(n) is not None and value(width) is not None:
        return value(n) // value(width) if value(n) % value(width) == 0 else None
    if isinstance(n, Sym) and isinstance(width, Sym) and "*" in n.name:
        parts = n.name.split("*")
        if width.name in parts:
            parts.remove(width.name)
            if len(parts) == 1 and parts[0].isidentifier():
                return Sym(parts[0], expr=parts[0])
    return None


def _with_grid(result: TensorVal, grid: tuple) -> TensorVal:
    base = result.domain or Domain()
    return result.with_(domain=replace(base, grid=grid))


def _plain_positions(t):
    """The domain of values that are positions of one dim (no grid yet, no ids, mask, padding or floats), else None."""
    d = t.domain if isinstance(t, TensorVal) else None
    if d is None or d.size is None or value(d.size) == 1 or d.grid is not None or d.category or d.binary \
            or d.sentinel is not None or d.made_float or t.dtype in _FLOATS:
        return None
    return d


def _row_count(t):
    """R for row numbers 0..R-1 (an arange of R, copied or reshaped); None otherwise."""
    d = _plain_positions(t)
    return d.size if d is not None and _ROWS in d.origin else None


def _column_count(t):
    """C for positions of a dim of size C (top-k, sort, argmax, multinomial draws, an arange of C); not a bound
    worked out from written values, which says nothing of the dim they were meant for."""
    d = _plain_positions(t)
    return d.size if d is not None and not (d.bound_only and _ROWS not in d.origin) else None


_FLOATS = ("bool", "float16", "bfloat16", "float32", "float64")


def check_grid(interp, node, index_node, index, size) -> None:
    """GL030 where grid positions index a dim of `size` entries, R * C of them (the [R, C] grid flattened),
    with a stride other than C."""
    d = index.domain if isinstance(index, TensorVal) else None
    grid = d.grid if d is not None else None
    if grid is None or grid[2] is None or size is None:
        return
    rows, stride, width, text = grid
    if not _is_product(size, rows, width) or must_equal(stride, width) or not (
            must_differ(stride, width) or must_equal(stride, rows) and not must_equal(rows, width)):
        return
    interp.flag(node, rule.check_grid(text, rows, stride, width, size), index_node)


def _is_product(size, rows, width) -> bool:
    """size is rows * width: by value, or as the product of the two names."""
    product = symbolic.product([rows, width])
    return product is not None and must_equal(size, product)


def check_site(interp, node: ast.Call, site, bound, values) -> None:
    """GL030 at a family call reading along one dim (index_select, gather, index_add_ ...)."""
    index = values.get(site.op.index_param)
    shape = site.input.shape
    if not isinstance(index, TensorVal) or index.domain is None or index.domain.grid is None or shape is None \
            or shape.variadic or site.dim is None or not -len(shape.dims) <= site.dim < len(shape.dims):
        return
    check_grid(interp, node, bound.get(site.op.index_param), index, shape.dims[site.dim])


def check_take(interp, node: ast.Call, source, index) -> None:
    """GL030 at `torch.take(x, idx)`, which reads x flattened: all of x's entries are the dim indexed."""
    shape = source.shape if isinstance(source, TensorVal) else None
    if shape is not None and not shape.variadic and shape.dims:
        check_grid(interp, node, node.args[1], index, symbolic.product(list(shape.dims)))


def check_subscript(interp, node: ast.Subscript, owner, key) -> None:
    """GL030 at `flat[idx]` / `x[:, idx]`: each element of the key after plain slices indexes its own dim."""
    pairs = key_items.aligned(node, key)
    if not isinstance(owner, TensorVal) or owner.shape is None or owner.shape.variadic or pairs is None:
        return
    elements = [e for e, _ in pairs]
    for axis, (element, item) in enumerate(pairs):
        if isinstance(element, ast.Slice):
            continue
        if axis >= len(owner.shape.dims) or not key_items.after_slices_only(elements, axis):
            return  # after another index tensor the dims no longer line up one to one
        check_grid(interp, node, element, item, owner.shape.dims[axis])
