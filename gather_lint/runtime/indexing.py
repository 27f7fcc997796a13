"""Checks for `x[key]` and `x[key] = v` when the key holds an integer tensor (advanced indexing).

- GL011: index values outside [-size, size) on their dim (torch raises IndexError; the report adds
  the first bad coordinate and value).
- GL013: `x[idx] += v` / `-=`: Python reads x[idx], adds in place, and writes back with the same
  key object. When the key's positions repeat, each repeated position is incremented once. And
  `x[idx] = v` / `x.index_put_((idx,), v)` giving a repeated position different values (one survives).
- GL008: a key tensor of a dtype indexing rejects (float from `/` or a float array, int16, int8):
  torch raises IndexError without saying which tensor or where its dtype came from.
- GL003: `x[mask] = v` where the mask selects another number of positions than v has rows: torch
  raises a shape mismatch naming neither the mask nor the count; `x[0, positions] = v` likewise with
  integer positions (looked at only after torch rejects the write).
Keys of ints, slices, None and Ellipsis never reach here (the wrapper's fast path).
"""
from __future__ import annotations

import re
from typing import List, Optional, Tuple

import torch

from ..contract import Violation
from ..rules import gl003_index_too_large as too_large
from ..rules import gl008_index_dtype as dtype_rule
from ..rules import gl011_index_out_of_range as oob
from ..rules import gl013_overwriting_accumulate as gl013
from ..rules import gl016_src_dtype_mismatch as gl016
import gather_lint.runtime.values as values
from .overwrite_checks import augmented_write, conflicting_positions, repeated_positions


def has_tensor(key) -> bool:
    """Cheap test run on every indexing call: is there a tensor in the key?"""
    if isinstance(key, torch.Tensor):
        return True
    if type(key) is tuple:
        for k in key:
            if isinstance(k, torch.Tensor):
                return True
    return False


_KEY_DTYPES = (torch.int64, torch.int32, torch.bool, torch.uint8)  # what advanced indexing accepts


def rejected_key_dtype(key) -> Optional[Violation]:
    """GL008 for the first key tensor whose dtype indexing rejects."""
    for position, k in enumerate(key if type(key) is tuple else (key,)):
        if isinstance(k, torch.Tensor) and k.dtype not in _KEY_DTYPES:
            dtype = str(k.dtype).replace("torch.", "")
            where = f"key item {position}" if type(key) is tuple else "the key"
            made = " (a true division `/` makes floats: `//` keeps integers)" if k.is_floating_point() else ""
            return Violation(dtype_rule.CODE, dtype_rule.SEVERITY,
                             f"{where} is a {dtype} tensor, but tensors used as indices must be int64 or int32 "
                             f"positions (or a bool mask); torch raises IndexError; convert it with `.long()`{made}")
    return None


def masked_write_mismatch(x: torch.Tensor, key, value) -> Optional[Violation]:
    """GL003 for `x[mask] = v` (mask over x's leading dims) when v does not broadcast to the selected
    positions: [count] + x.shape[mask.dim():]. A silent alternative does not exist, so torch raises;
    the report names the count the mask selects against the rows the value has."""
    if not isinstance(key, torch.Tensor) or key.dtype is not torch.bool or not isinstance(value, torch.Tensor):
        return None
    if key.dim() == 0 or key.dim() > x.dim() or tuple(key.shape) != tuple(x.shape[:key.dim()]):
        return None
    if not values.has_values(key) or key.device != x.device:
        return None
    count = int(key.sum())
    selected = (count,) + tuple(x.shape[key.dim():])
    try:
        torch.broadcast_shapes(tuple(value.shape), selected)
        return None
    except RuntimeError:
        pass
    rows = value.shape[0] if value.dim() == len(selected) else None
    have = f"{rows} rows" if rows is not None else f"shape {list(value.shape)}"
    return Violation(too_large.CODE, too_large.SEVERITY,
                     f"`x[mask] = v`: the mask selects {count} positions (x[mask] has shape {list(selected)}) but v has "
                     f"{have} (shape {list(value.shape)}); torch raises a shape mismatch; make the mask select exactly "
                     f"the positions v was computed for, or cut v to the selected count")


_WRITE_SHAPES = re.compile(r"value tensor of shape \[([\d, ]*)\] cannot be broadcast to indexing result of shape \[([\d, ]*)\]")


def rejected_write(key, torch_message: str) -> Optional[Violation]:
    """GL003 for `x[..., positions, ...] = v` that torch rejected: the positions select another number
    of rows than v has. Read from torch's message, which names both shapes but not the index."""
    found = _WRITE_SHAPES.search(torch_message)
    if found is None:
        return None
    value, selected = ([int(n) for n in part.split(",") if n.strip()] for part in found.groups())
    keys = key if type(key) is tuple else (key,)
    counts = [k.numel() for k in keys if isinstance(k, torch.Tensor) and k.dtype in (torch.int64, torch.int32)]
    picked = f" ({counts[0]} positions)" if len(counts) == 1 else ""
    return Violation(too_large.CODE, too_large.SEVERITY,
                     f"`x[idx] = v`: the index selects {selected}{picked} but v has shape {value}, which does not "
                     f"broadcast to it; torch raises a shape mismatch; {_write_fix(value, selected)}")


def rejected_put_dtype(x, value, torch_message: str) -> Optional[Violation]:
    """GL016 for `x[idx] = v` that torch rejected because v (a tensor) has another dtype than x."""
    if "dtypes match" not in torch_message or not isinstance(value, torch.Tensor):
        return None
    return gl016.check_index_put("x[idx]", "v", str(x.dtype).replace("torch.", ""), str(value.dtype).replace("torch.", ""))


def _write_fix(value: list, selected: list) -> str:
    if len(value) == 2 and value[0] == value[1] > 1 and selected[:1] == value[:1]:
        return (f"v is a square [{value[0]}, {value[0]}], the outer product a column [N, 1] makes with an [N] "
                f"tensor: squeeze that column where v is computed")
    return "make the index select one position per row of v (all the positions v was computed for), or cut v to the selected rows"


def integer_indices(shape: Tuple[int, ...], key) -> Optional[List[Tuple[int, torch.Tensor]]]:
    """[(input dim, integer index tensor)] for the key; None when the key's layout is not understood."""
    items = key if type(key) is tuple else (key,)
    consumed = 0
    for k in items:
        if k is None or k is Ellipsis:
            continue
        if isinstance(k, torch.Tensor) and k.dtype in (torch.bool, torch.uint8):
            consumed += k.dim()
        else:
            consumed += 1
    if consumed > len(shape):
        return None  # torch raises "too many indices"
    found, dim = [], 0
    for k in items:
        if k is None:
            continue
        if k is Ellipsis:
            dim += len(shape) - consumed
        elif isinstance(k, torch.Tensor):
            if k.dtype in (torch.bool, torch.uint8):
                dim += k.dim()
                continue
            if k.dtype not in (torch.int64, torch.int32, torch.int16, torch.int8):
                return None
            found.append((dim, k))
            dim += 1
        elif isinstance(k, (int, slice)):
            dim += 1
        else:
            return None  # lists, SymInts and other keys: leave them to torch
    return found


def out_of_range(shape: Tuple[int, ...], found, spelled: str) -> Optional[Violation]:
    for dim, idx in found:
        if not values.has_values(idx):
            continue
        size = shape[dim]
        low, high = values.span(idx)
        if low >= -size and high < size:
            continue
        coord, value = values.first_bad(idx, -size, size - 1)
        return Violation(oob.CODE, oob.SEVERITY, oob.message(
            spelled, low, high, size, dim, f"; first bad value {value} at index{list(coord)}", "", -size))
    return None


def overwriting_accumulate(shape: Tuple[int, ...], found, op: str) -> Optional[Violation]:
    if not found or not all(values.has_values(i) for _, i in found):
        return None
    repeated = repeated_positions(shape, found)
    return augmented_write(op, repeated) if repeated else None


def conflicting_write(x: torch.Tensor, key, found, value, put: bool = False, flat: bool = False) -> Optional[Violation]:
    """GL013 for `x[ids] = v` (or `x.index_put_((ids,), v)`, put=True; `x.put_(ids, v)`, flat=True, checked on
    the flattened x) where a repeated position gets different values, into any buffer: torch keeps one of them,
    unspecified which. Only keys made of integer tensors alone, on x's leading dims; bool buffers are masks,
    where a repeat marks twice."""
    if not isinstance(value, torch.Tensor) or x.dtype == torch.bool or value.device != x.device:
        return None
    items = key if type(key) is tuple else (key,)
    if len(found) != len(items) or any(dim != k for k, (dim, _) in enumerate(found)):
        return None
    if not all(values.has_values(i) for _, i in found) or not values.has_values(value) or x.numel() == 0:
        return None
    if (put or flat) and out_of_range(tuple(x.shape), found, "put_" if flat else "index_put_") is not None:
        return None  # torch raises on the bad index (x[key] = v had it checked already)
    where = conflicting_positions(tuple(x.shape), found, value)
    if where is None:
        return None
    if flat:
        return gl013.check_undefined_write("x.put_(index, v)", where, "`x.put_(index, v, accumulate=True)`")
    names = ", ".join(f"i{k}" for k in range(len(found))) if len(found) > 1 else "index"
    keyed = f"({names},)" if len(found) == 1 else f"({names})"
    write = f"x.index_put_({keyed}, v)" if put else f"x[{names}] = v"
    return gl013.check_undefined_write(write, where, f"`x.index_put_({keyed}, v, accumulate=True)`")
