"""The common call, checked without the generic machinery: `x.gather(d, idx)`, `torch.gather(x, d, idx)`,
`x.index_select(d, idx)` with positional arguments, plain tensors on one device and an int dim; an
embedding lookup (`nn.Embedding`, `F.embedding(ids, weight, ...)`); a read `x[idx]` with one integer
CPU tensor key. On an accelerator at the async level the value check is the device record
(device_records), as on the generic path.

A call whose signature (op, shapes, dtypes, devices, dim) already passed the shared contract with
nothing to report only needs its index values checked; this module does that one check and says
"clean", or says nothing (None) and the generic path (checker.check_call) decides and reports.
It never reports by itself, so a finding always comes from the generic path with its full text.
"""
from __future__ import annotations

from typing import Dict, Optional, Union

import torch

from ..dims import normalize_dim
from ..ops import OPS
import gather_lint.runtime.device_records as device_records
import gather_lint.runtime.provenance as provenance
import gather_lint.runtime.shift_checks as shift_checks
import gather_lint.runtime.values as values
from .checker import ASYNC, _shape_verdict

FAST_OPS = frozenset({OPS["gather"], OPS["index_select"]})  # (input, dim, index), no payload to check

_PLAIN = (torch.Tensor, torch.nn.Parameter)  # exact types: subclasses (fake, functional) take the generic path
_is_wrapped = torch._C._functorch.is_functorch_wrapped_tensor  # vmap/grad wrappers: values unreadable
_is_tracing = torch._C._is_tracing  # torch.jit.is_tracing() without its Python frame (eager only reaches here)

# signature -> the checked axis (the call's shapes pass), or False (always take the generic path)
_CLEAN: Dict[tuple, Union[int, bool]] = {}
_CLEAN_MAX = 4096


def clear() -> None:
    _CLEAN.clear()


def clean_axis(op, inp, dim, index, level: str = ASYNC) -> Optional[int]:
    """The normalised dim when the call is proven clean (shapes and values); None: ask the generic path."""
    if type(inp) not in _PLAIN or type(index) is not torch.Tensor or type(dim) is not int or _is_tracing():
        return None
    # op.name, not op: hashing the frozen dataclass rehashes its fields on every call (FAST_OPS: one op a name)
    key = (op.name, inp.shape, inp.dtype, inp.device, index.shape, index.dtype, index.device, dim)
    axis = _CLEAN.get(key)
    if axis is None:
        _learn(op, inp, dim, index, key)
        return None  # the first call of a signature goes through the generic path
    if axis is False or _is_wrapped(index):
        return None
    size = inp.shape[axis]
    if provenance.ORIGINS:
        origin = provenance.origin_of(index)
        if origin is not None:  # GL004 is the generic path's, unless this is the dim the indices were made for
            if origin.axis != axis or not origin.bounds(index, size):
                return None
            return axis  # topk/argmax/sort made these values in [0, size), untouched since
    if shift_checks.FED and shift_checks.fed_rows(index) not in (None, size):
        return None  # ids an embedding of another size looked up: GL004 is the generic path's question
    if level == ASYNC and not index.is_cpu:  # an accelerator (meta and fake tensors never reach here)
        device_records.record(values.deexpand(index), 0, size, op.spelled, dim, wraps=False)
        return axis
    low, high = values.span(index)
    return axis if values.fits(low, high, size) else None


def _learn(op, inp, dim, index, key) -> None:
    try:
        site, found = _shape_verdict(op, {"input": inp, "dim": dim, "index": index})
    except (TypeError, ValueError):
        site, found = None, None
    fast = (site is not None and not found and inp.device == index.device
            and inp.dim() > 0 and index.dim() > 0 and values.has_values(index))  # not meta, fake or empty
    if len(_CLEAN) >= _CLEAN_MAX:
        _CLEAN.clear()
    axis = normalize_dim(dim, inp.dim()) if fast else None
    _CLEAN[key] = False if axis is None else axis


_ID_DTYPES = (torch.int64, torch.int32)  # what embedding and advanced indexing take as integer indices


def _plain_ids(ids) -> bool:
    """A plain, non-empty integer tensor, not a vmap/grad wrapper: on the CPU (or on an accelerator, not
    meta) the cases the full check reads too."""
    # tracing first: reading sizes of a traced tensor prints TracerWarnings
    return (not _is_tracing() and type(ids) is torch.Tensor and ids.dtype in _ID_DTYPES and ids.numel() > 0
            and not _is_wrapped(ids))


def _plain_cpu_ids(ids) -> bool:
    return _plain_ids(ids) and ids.is_cpu


def clean_embedding(ids, weight, level: str = ASYNC) -> bool:
    """True when `F.embedding(ids, weight)` passes every check (checker._embedding): an int64/int32
    id tensor on the table's device with every id in [0, rows) (on an accelerator at the async level:
    its device record queued). False: ask the generic path."""
    if type(weight) not in _PLAIN or weight.dim() != 2:
        return False
    if not weight.is_cpu:
        if level != ASYNC or not _plain_ids(ids) or ids.device != weight.device or ids.is_meta:
            return False
        device_records.record(values.deexpand(ids), 0, weight.shape[0], "embedding", 0, wraps=False)
        return True
    if not _plain_cpu_ids(ids):
        return False
    low, high = values.span(ids)
    return low >= 0 and high < weight.shape[0]


def clean_subscript(x, key) -> bool:
    """True when the read `x[key]` with one integer tensor key passes the checks (indexing.out_of_range):
    every value in [-n, n) for n = x.size(0). False: ask the generic path."""
    if type(x) not in _PLAIN or not x.is_cpu or x.dim() == 0 or not _plain_cpu_ids(key):
        return False
    low, high = values.span(key)
    size = x.shape[0]
    return low >= -size and high < size
