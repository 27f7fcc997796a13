"""Silent write mistakes that only the values show (GL013, GL014), checked before the op runs.

- GL013: a write without accumulating that gives one position two or more different values in one
  call, into any buffer: `scatter` (no reduce) of a src tensor, `index_copy_`, and `x[ids] = v` /
  `index_put_` (indexing.py calls here). Torch documents the result as undefined: one value
  survives, which one is unspecified (on CUDA it changes from run to run). The same value written
  twice (a mask, a one-hot, a scalar) is silent. Also `x[ids] += v` / `-=` where the read and the
  write use the same index holding repeated positions.
- GL014: `scatter_reduce` mean/prod/amax/amin with include_self=True onto an all-zeros self, where
  the zeros change the result.
Each check reads values, so it runs only where that is free of a device sync (CPU, or `sync` level).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional, Sequence

import torch

from ..contract import Site, TensorInfo, Violation
from ..dims import normalize_dim
from ..rules import gl013_overwriting_accumulate as gl013
from ..rules import gl014_reduce_includes_buffer as gl014
import gather_lint.runtime.reads as reads

_MEAN_LIKE = ("mean", "prod", "amax", "amin")


def _all_zeros(t: torch.Tensor) -> bool:
    return t.numel() > 0 and not bool(t.any())


def scatter_overwrites(site: Site, bound: dict) -> Optional[Violation]:
    """GL013 for `x.scatter(dim, index, src)` (no reduce) where an index repeats along `dim` with different src values."""
    inp, index, src = bound.get("input"), bound.get("index"), bound.get("src")
    if site.op.name != "scatter" or bound.get("reduce") is not None or not isinstance(src, torch.Tensor):
        return None
    axis = normalize_dim(site.dim, inp.dim()) if site.dim is not None else None
    if axis is None or index.dim() == 0 or index.shape[axis] < 2 or inp.dtype == torch.bool \
            or src.device != index.device or src.dim() != index.dim():
        return None
    # the part of src that scatter reads: index's shape from src's origin
    part = src[tuple(slice(0, n) for n in index.shape)]
    if part.stride(axis) == 0:
        return None  # src expanded along dim: one value per written position
    with torch.no_grad():
        if bool((part == part.reshape(-1)[0]).all()):
            return None  # one value throughout (torch.ones_like(index): a one-hot or a mask)
        if _own_positions(part, axis):
            return None  # each element writes its own position: one member per group, whichever lands
        # a write's position: its index value along dim and its coordinates on the other dims
        others = index.numel() // index.shape[axis]
        across = torch.arange(others, device=index.device).view(
            tuple(1 if k == axis else n for k, n in enumerate(index.shape)))
        flat = (index.long() * others + across).reshape(-1)
        found = _first_clash(flat, inp.shape[axis] * others, part.reshape(-1, 1))
    if found is None:
        return None
    position, _, first, second, clashing = found
    if _sink_only(clashing // others, inp.shape[axis]):
        return None
    value = position // others
    write = f"x.{site.op.spelled}({site.dim}, index, src)"
    tail = "_" if site.op.in_place else ""
    fix = f"`x.scatter_add{tail}({site.dim}, index, src)` (or combine them with `scatter_reduce{tail}`: 'sum', 'amax', 'mean')"
    return gl013.check_undefined_write(
        write, f"index value {value} repeats along dim {site.dim} with src values {first} and {second}", fix)


def _sink_only(values: torch.Tensor, size: int) -> bool:
    """Every clash lands on the dim's last position, one slot past the others: a sink that takes the writes
    nobody keeps (padding scattered to index `max_len` of a `max_len + 1` buffer, then cut off with `[:, :-1]`).
    Whatever survives there is thrown away, so the clash loses nothing."""
    return size > 1 and bool((values == size - 1).all())


def _own_positions(part: torch.Tensor, axis: int) -> bool:
    """Integer src whose values are their own positions along dim (`scatter_(0, inv, arange(n))`): the write
    keeps one member of each group, the representative (or first-index) pick, where any member is right."""
    if part.is_floating_point() or part.is_complex() or part.dtype == torch.bool:
        return False
    steps = torch.arange(part.shape[axis], device=part.device)
    return bool((part == steps.view(tuple(-1 if k == axis else 1 for k in range(part.dim())))).all())


def _differ(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Elementwise a != b, where two NaNs are the same value (writing NaN twice loses nothing)."""
    if a.is_floating_point() or a.is_complex():
        return (a != b) & ~(a.isnan() & b.isnan())
    return a != b


def _number(t: torch.Tensor) -> str:
    value = t.item()
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def index_copy_overwrites(site: Site, bound: dict) -> Optional[Violation]:
    """GL013 for `x.index_copy_(dim, index, source)` where a repeated index gets different source rows."""
    inp, index, source = bound.get("input"), bound.get("index"), bound.get("source")
    if site.op.name != "index_copy" or not isinstance(source, torch.Tensor) or index.dim() != 1:
        return None
    if inp.dim() == 0 or source.dim() != inp.dim() or inp.dtype == torch.bool or index.numel() < 2 \
            or source.device != index.device:
        return None
    axis = normalize_dim(site.dim, inp.dim()) if site.dim is not None else None
    if axis is None:
        return None
    shape = (inp.shape[axis],) + tuple(n for k, n in enumerate(inp.shape) if k != axis)
    where = conflicting_positions(shape, [(0, index)], source.movedim(axis, 0))
    if where is None:
        return None
    write = f"x.{site.op.spelled}({site.dim}, index, source)"
    return gl013.check_undefined_write(write, where.replace("position", "row"),
                                       f"`x.index_add_({site.dim}, index, source)`")


def copy_back_overwrites(site: Site, bound: dict) -> Optional[Violation]:
    """GL013 for `x.index_copy_(d, ids, f(x.index_select(d, ids)))`: the rows read with `ids` are
    written back with the same `ids`, which repeat with different new values: one update per row survives."""
    inp, index, source = bound.get("input"), bound.get("index"), bound.get("source")
    if site.op.name != "index_copy" or not isinstance(source, torch.Tensor) or index.dim() != 1:
        return None
    axis = normalize_dim(site.dim, inp.dim()) if site.dim is not None and inp.dim() else None
    if axis is None or source.dim() != inp.dim() or not reads.selected_before(inp, axis, index):
        return None
    shape = (inp.shape[axis],) + tuple(n for k, n in enumerate(inp.shape) if k != axis)
    where = conflicting_positions(shape, [(0, index)], source.movedim(axis, 0))
    if where is None:
        return None
    return gl013.check_read_modify_write(
        f"x.{site.op.name}_({site.dim}, index, ...)", "index", f"repeated rows read by `x.index_select({site.dim}, index)` "
        f"({where.replace('position', 'row')})", f"`x.index_add_({site.dim}, index, v)` where v is the change per row")


def reduce_includes_zeros(site: Site, bound: dict) -> Optional[Violation]:
    """GL014 for scatter_reduce onto an all-zeros self with include_self=True, where it matters."""
    reduce = bound.get("reduce")
    if site.op.name != "scatter_reduce" or reduce not in _MEAN_LIKE or bound.get("include_self", True) is False:
        return None
    inp, index, src = bound["input"], bound["index"], bound.get("src")
    if not isinstance(src, torch.Tensor) or not _all_zeros(inp):
        return None
    if reduce in ("amax", "amin"):  # zeros change the result only where src stays below / above 0
        with torch.no_grad():
            with_self = inp.scatter_reduce(site.dim, index, src, reduce, include_self=True)
            without = inp.scatter_reduce(site.dim, index, src, reduce, include_self=False)
        if torch.equal(with_self, without):
            return None
    info = TensorInfo(site.input.shape, site.input.dtype, None, "self", filled="zeros", role_named=True)
    # the values are at hand: those below 0 that the zeros replace are the evidence the rule asks for
    payload = replace(site.payload or TensorInfo(text="src", role_named=True), signed=bool((src < 0).any()))
    return gl014.check(Site(site.op, info, site.index, site.dim, site.dim_given, payload,
                            {"reduce": reduce, "include_self": True}))


def repeated_positions(shape: Sequence[int], indices: Sequence[tuple]) -> Optional[str]:
    """For x[i0, i1, ...] (each (dim, index tensor)): a description of one repeated position, or None."""
    flat = None
    for dim, idx in indices:
        size = shape[dim]
        part = torch.where(idx < 0, idx + size, idx).long()
        flat = part if flat is None else flat * size + part
    if flat is None:
        return None
    hits = repeats(torch.broadcast_to(flat, torch.broadcast_shapes(*(i.shape for _, i in indices))).reshape(-1))
    return None if hits is None else f"repeated positions (one position appears {hits[3]} times)"


def repeats(flat: torch.Tensor) -> Optional[tuple]:
    """(writes, distinct positions, a most repeated position, its writes) of flat positions; None when none repeats."""
    if flat.numel() < 2:
        return None
    uniq, counts = torch.unique(flat, return_counts=True)
    if uniq.numel() == flat.numel():
        return None
    k = int(counts.argmax())
    return flat.numel(), uniq.numel(), int(uniq[k]), int(counts[k])


def conflicting_positions(shape: Sequence[int], indices: Sequence[tuple], value: torch.Tensor) -> Optional[str]:
    """For x[i0, .., ik-1] = value (indices on x's leading dims): one position that receives
    different values, described; None when every repeated position gets one value.
    The positions are counted or sorted; the written values are read only at the repeated ones."""
    lead = torch.broadcast_shapes(*(i.shape for _, i in indices))
    trailing = tuple(shape[len(indices):])
    try:
        written = torch.broadcast_to(value, tuple(lead) + trailing)
    except RuntimeError:
        return None  # torch raises its own shape mismatch
    varying = value.shape[:max(value.dim() - len(trailing), 0)]
    if all(n == 1 for n in varying):
        return None  # a scalar or one row for every position: each position gets that one value
    flat, space = None, 1
    for dim, idx in indices:
        size = shape[dim]
        part = (idx % size).long()  # in-range values: a negative one counts from the end, as torch reads it
        flat = part if flat is None else flat * size + part
        space *= size
    flat = torch.broadcast_to(flat, lead).reshape(-1)
    if flat.numel() < 2:
        return None
    with torch.no_grad():
        found = _first_clash(flat, space, written.reshape(flat.numel(), -1) if written.is_contiguous() else
                             _RowsAt(written, tuple(lead)))
    if found is None:
        return None
    position, times, first, second, _ = found
    shown = f", values {first} and {second} among them" if len(trailing) == 0 or all(n == 1 for n in trailing) else ""
    coord = []
    for dim, _ in reversed(indices):
        coord.append(position % shape[dim])
        position //= shape[dim]
    where = coord[0] if len(coord) == 1 else tuple(reversed(coord))
    return f"position {where} is written {times} times{shown}"


def _counted(space: int, writes: int) -> bool:
    """Count (bincount, linear in space + writes) rather than sort (n log n) when the space is not much larger."""
    return space <= 16 * writes + (1 << 16)


class _RowsAt:
    """The rows a broadcast value writes, read at some writes only (never materialised whole)."""

    def __init__(self, written: torch.Tensor, lead: tuple):
        self.written, self.lead = written, lead

    def __getitem__(self, entries: torch.Tensor) -> torch.Tensor:
        coords = []
        for n in reversed(self.lead):
            coords.append(entries % n)
            entries = entries // n
        return self.written[tuple(reversed(coords))].reshape(len(coords[0]), -1)


def _first_clash(flat: torch.Tensor, space: int, rows) -> Optional[tuple]:
    """flat: the position (in [0, space)) of each write; rows[entries]: the values those writes write, [k, m].
    (position, times written, one value, another value, every position written with different values) for a
    position written with different values, or None.
    Counting finds repeats in linear time; only the repeated writes are sorted, to pair them up."""
    if _counted(space, flat.numel()):
        counts = torch.bincount(flat, minlength=space)
        if int(counts.max()) < 2:
            return None
        entries = (counts[flat] > 1).nonzero().squeeze(1)
        keys, order = flat[entries].sort()
        order = entries[order]
    else:
        counts = None
        keys, order = flat.sort()
    same = keys[1:] == keys[:-1]
    if not bool(same.any()):
        return None
    pairs = same.nonzero().squeeze(1)
    one, other = rows[order[pairs]], rows[order[pairs + 1]]
    clash = _differ(other, one).any(-1)
    if not bool(clash.any()):
        return None  # in a group of writes to one position, some adjacent pair differs when any two do
    k = int(clash.nonzero()[0])
    position = int(keys[int(pairs[k])])
    times = int(counts[position]) if counts is not None else int((flat == position).sum())
    return position, times, _number(one[k, 0]), _number(other[k, 0]), keys[pairs[clash]]


def augmented_write(op: str, where: str) -> Violation:
    return gl013.check_augmented("x", "index", where, op, "v")
