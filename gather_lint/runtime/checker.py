"""Checks one intercepted call: the shared contract on concrete shapes, then values and devices."""
from __future__ import annotations

from dataclasses import replace
from typing import Dict, List, Optional, Tuple

import torch

from ..contract import ERROR, Site, TensorInfo, Violation
from ..rules import check
from ..dims import Shape, normalize_dim
from ..ops import INDEX, SCATTER, TAKE_ALONG, Op, bind_arguments
from ..rules import gl010_wrapped_indices as wrap_rule
from ..rules import gl011_index_out_of_range as oob
from ..rules import gl012_device_mismatch as device_rule
import gather_lint.runtime.device_records as device_records
import gather_lint.runtime.values as values
import gather_lint.runtime.source_shapes as source_shapes
from .silent_checks import origin_mistakes, value_mistakes
from .targets import EMBEDDING

SYNC, ASYNC = "sync", "async"


def _info(t, role: str) -> TensorInfo:
    if not isinstance(t, torch.Tensor):
        return TensorInfo(text=role, role_named=True)
    if torch.compiler.is_compiling():  # int() would specialise a dynamic size: keep the symbolic ones
        return TensorInfo(Shape(tuple(t.shape)), str(t.dtype).replace("torch.", ""), None, role, role_named=True)
    return TensorInfo(Shape(tuple(int(n) for n in t.shape)), str(t.dtype).replace("torch.", ""), None, role,
                      role_named=True)


def site_of(op: Op, bound: dict) -> Optional[Site]:
    inp, index = bound.get("input"), bound.get(op.index_param)
    if not isinstance(inp, torch.Tensor) or not isinstance(index, torch.Tensor):
        return None
    dim = bound.get("dim")
    dim_given = dim is not None
    if dim_given and not isinstance(dim, int):
        try:
            dim = int(dim)  # a 0-d integer tensor is accepted by torch
        except (TypeError, ValueError):
            return None
    payload_name = op.payload_param
    payload = bound.get(payload_name) if payload_name else None
    if op.name == "scatter" and isinstance(bound.get("value"), torch.Tensor):
        payload = bound["value"]
    site = Site(op, _info(inp, "input"), _info(index, "index"), dim if dim_given else None, dim_given,
                _info(payload, "src" if op.family == SCATTER else "source") if isinstance(payload, torch.Tensor) else None)
    if op.name == "scatter" and "value" in bound:
        site.options["payload_from"] = "value"  # value= is a scalar torch converts, never a src
    if isinstance(payload, torch.Tensor) and payload.dtype != inp.dtype:
        # real dtypes, not a static guess; CUDA autocast promotes scatter_add's and index_put's inputs
        site.options["dtypes_exact"] = not _autocasting(inp)
    return site


def _autocasting(t: torch.Tensor) -> bool:
    return torch.is_autocast_enabled(t.device.type)


_VERDICTS: Dict[tuple, Tuple[Optional[Site], List[Violation]]] = {}
_VERDICTS_MAX = 4096  # distinct (op, shapes, dtypes, dim) signatures remembered


def _signature(op: Op, bound: dict) -> Optional[tuple]:
    """What the shape verdict depends on; None when an argument is not what the op expects."""
    key = [op]
    for name in ("input", op.index_param, op.payload_param, "value"):
        t = bound.get(name) if name else None
        if isinstance(t, torch.Tensor):
            key += (name, t.shape, t.dtype, t.get_device() if t.is_cuda else t.device)
        elif name in ("input", op.index_param):
            return None
    dim = bound.get("dim")
    key.append(dim if dim is None or isinstance(dim, int) else int(dim))
    payload = bound.get(op.payload_param) if op.payload_param else None
    if isinstance(payload, torch.Tensor) and payload.dtype != bound["input"].dtype:
        key.append(_autocasting(bound["input"]))  # the dtype verdict depends on it (site_of)
    return tuple(key)


def _shape_verdict(op: Op, bound: dict):
    """(site, violations) from the shared contract, memoised by signature: a training loop calls
    each site with the same shapes, so the contract runs once per shape, not once per call."""
    key = None if torch.compiler.is_compiling() else _signature(op, bound)  # a lookup would guard on sizes
    if key is not None and key in _VERDICTS:
        return _VERDICTS[key]
    site = site_of(op, bound)
    verdict = (site, source_shapes.annotated(op, bound, check(site)) if site is not None else [])
    if site is not None:
        device = _device_mismatch(bound["input"], bound[op.index_param])
        if device is not None:
            verdict[1].append(device)
    if key is not None:
        if len(_VERDICTS) >= _VERDICTS_MAX:
            _VERDICTS.clear()
        _VERDICTS[key] = verdict
    return verdict


def check_call(entry, args, kwargs, level: str) -> List[Violation]:
    """Violations of one call, before it runs. Empty for calls the checker cannot bind."""
    if entry == EMBEDDING:
        return _embedding(args, kwargs, level)
    op: Op = entry
    bound = bind_arguments(op, args, kwargs, method=False)
    if bound is None:
        return []
    index = bound.get(op.index_param)
    if not isinstance(index, torch.Tensor):
        return []
    if index.numel() == 0:  # torch skips every check for an empty index (S12), but the dtype one of some ops
        return _empty_index_dtype(op, bound)
    try:
        site, found = _shape_verdict(op, bound)
    except (TypeError, ValueError):
        return []  # arguments torch itself will reject with its own message
    if site is None:
        return []
    found = _one_value_src(op, bound, site, found, level)
    if index.numel() == 0:
        return list(found)  # the other ops still check an empty index's dtype and rank; no values to read
    if found and (any(v.severity == ERROR for v in found)):
        return list(found)  # torch checks shapes before values; so do we
    found = list(found) + (origin_mistakes(site, bound) or _values(op, site, bound["input"], index, level))
    return found or value_mistakes(site, bound, level)


def _one_value_src(op: Op, bound: dict, site: Site, found, level: str):
    """GL009 is the static rule's to withdraw for a src holding one value throughout (`torch.full_like(p, -1)`): the
    leading block scatter reads along dim is what a same-sized src would give. The values are read on the CPU, or
    where the level syncs anyway; an accelerator's async level keeps the warning rather than wait for them."""
    src = bound.get(op.payload_param) if op.payload_param else None
    if not any(v.code == "GL009" for v in found) or not isinstance(src, torch.Tensor) or site.payload is None \
            or src.requires_grad or src.numel() == 0 or torch.compiler.is_compiling() \
            or _on_accelerator(src) and level == ASYNC:
        return found
    flat = src.reshape(-1)
    if not bool((flat == flat[0]).all()):
        return found
    filled = replace(site, payload=replace(site.payload, filled="full"))
    return found if any(v.code == "GL009" for v in check(filled)) else [v for v in found if v.code != "GL009"]


def _empty_index_dtype(op: Op, bound: dict) -> List[Violation]:
    """GL008 for an empty index where torch still checks the dtype: index_select/index_add_/index_copy_/
    index_fill_ and take_along_dim with a dim (`torch.tensor([])` is float32: an empty filter result)."""
    if op.family not in (INDEX, TAKE_ALONG) or op.family == TAKE_ALONG and bound.get("dim") is None:
        return []
    try:
        site, found = _shape_verdict(op, bound)
    except (TypeError, ValueError):
        return []
    return [v for v in found if v.code == "GL008"] if site is not None else []


def _range_text(size, lower=0) -> str:
    # formatting a symbolic size would specialise it (torch.compile would recompile for every size)
    return "" if torch.compiler.is_compiling() else f" [{lower}, {size})"


def _on_accelerator(t: torch.Tensor) -> bool:
    """Reading a value back from this device costs a host sync (CUDA and other accelerators)."""
    return t.device.type != "cpu"


def _device_mismatch(inp: torch.Tensor, index: torch.Tensor) -> Optional[Violation]:
    if inp.device != index.device:
        return Violation(device_rule.CODE, device_rule.SEVERITY, device_rule.message(index.device, inp.device))
    return None


def _values(op: Op, site: Site, inp: torch.Tensor, index: torch.Tensor, level: str) -> List[Violation]:
    if not values.has_values(index):
        return []
    if op.family == INDEX and op.name != "index_select" and inp.numel() == 0:
        return []  # index_add/index_copy/index_fill of an empty tensor: torch writes nothing, checks nothing
    rank = inp.dim()
    if op.family == TAKE_ALONG and not site.dim_given:
        size, axis = inp.numel(), 0
    else:
        axis = normalize_dim(site.dim, rank)
        if axis is None:
            return []
        size = inp.shape[axis] if rank else 1
    spelled = op.spelled
    allow_negative = op.name == "index_fill"  # index_fill takes negative positions
    lower = -size if allow_negative else 0
    wraps = op.family == TAKE_ALONG and site.dim_given
    if _on_accelerator(index) and level == ASYNC or torch.compiler.is_compiling():
        if not torch.compiler.is_compiling():  # the record that names the line and coordinate later
            device_records.record(values.deexpand(index), lower, size, spelled, site.dim, wraps)
        if wraps or torch.compiler.is_compiling():  # torch's own CUDA kernels assert on every other bad value
            code = wrap_rule.CODE if wraps else oob.CODE
            values.assert_async(index, size, f"{code} {spelled}(): index out of range{_range_text(size, lower)} "
                                             f"on dim={site.dim}", allow_negative)
        return []
    low, high = values.span(index)
    if values.fits(low, high, size, allow_negative):
        return []
    coord, value = values.first_bad(index, lower, size - 1)
    first = f"; first bad value {value} at index{list(coord)}"
    hint = values.hint_other_dim(low, high, tuple(inp.shape), axis, rank) if rank else None
    hint_text = f"; {hint}" if hint else ""
    if wraps:
        return [Violation(wrap_rule.CODE, wrap_rule.SEVERITY,
                          wrap_rule.message(low, high, size, site.dim, value, coord, hint_text))]
    dim = site.dim if site.dim is not None else 0
    return [Violation(oob.CODE, oob.SEVERITY, oob.message(spelled, low, high, size, dim, first, hint_text, lower))]


def _embedding(args, kwargs, level: str) -> List[Violation]:
    ids = args[0] if args else kwargs.get("input")
    weight = args[1] if len(args) > 1 else kwargs.get("weight")
    if not isinstance(ids, torch.Tensor) or not isinstance(weight, torch.Tensor) or weight.dim() != 2:
        return []
    if ids.dtype is not torch.int64 and ids.dtype is not torch.int32:
        dtype = str(ids.dtype).replace("torch.", "")
        return [Violation("GL008", ERROR, f"embedding ids have dtype {dtype} but embedding() needs int64 or int32; "
                                          f"torch raises; convert them with `.long()`")]
    if ids.device != weight.device:
        return [_device_mismatch(weight, ids)]
    if not values.has_values(ids):
        return []
    size = weight.shape[0]
    if _on_accelerator(ids) and level == ASYNC or torch.compiler.is_compiling():
        if torch.compiler.is_compiling():
            values.assert_async(ids, size, f"GL011 embedding(): id out of range{_range_text(size)}")
        else:  # torch's CUDA kernel asserts on a bad id; the record names the line
            device_records.record(values.deexpand(ids), 0, size, "embedding", 0, wraps=False)
        return []
    low, high = values.span(ids)
    if values.fits(low, high, size):
        return []
    coord, value = values.first_bad(ids, 0, size - 1)
    return [Violation(oob.CODE, oob.SEVERITY,
                      f"embedding ids span [{low}, {high}] but the table has {size} rows (valid: [0, {size - 1}]); "
                      f"first bad id {value} at ids{list(coord)}; torch raises 'index out of range in self' on CPU, "
                      f"a device-side assert on CUDA; mask padding ids or grow the table")]
