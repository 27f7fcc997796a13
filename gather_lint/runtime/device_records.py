"""Asynchronous index checks that still name the user's line and the bad coordinate (CUDA).

Before the op, two reductions on the index's own device (min and max, each with its position) make a
tiny record; it is copied `non_blocking` into a row of a pinned host ring and an event marks its
completion. Nothing waits for it:

- the next checked call polls finished records (`event.query()`, no sync) and reports a bad one at
  the line that made it;
- when torch's `device-side assert triggered` surfaces (the record's copy ran before the failing
  kernel, so it survives), the exception hook and exit handler print what the records say.

The ring is allocated once and never freed: after a device-side assert, freeing pinned memory makes
torch's host allocator record an event on a dead context, and that ends the process (`terminate`).
The same code runs on CPU tensors (tests): there the copy is synchronous and the event a no-op.
"""
from __future__ import annotations

import atexit
import collections
import ctypes
import itertools
import sys
import warnings
from dataclasses import dataclass
from typing import Deque, List, Optional, Tuple

import torch

from ..rules import gl010_wrapped_indices as wrap_rule
from ..rules import gl011_index_out_of_range as oob
import gather_lint.runtime.location as location

_MAX_PENDING = 4096  # records older than this are dropped unread (a loop that never reaches a poll)


class _DoneEvent:
    """The CPU stand-in for a CUDA event: the copy was synchronous."""

    @staticmethod
    def query() -> bool:
        return True


@dataclass
class Record:
    host: object  # host memory: [min, its flat position, max, its flat position] once the copy lands
    event: object
    shape: Tuple[int, ...]  # of the (de-expanded) index the positions refer to
    spelled: str
    dim: Optional[int]
    lower: int  # valid values: [lower, size)
    size: int
    wraps: bool  # take_along_dim with a dim: GL010 (torch wraps), else GL011
    where: Optional[tuple]  # the user's (file, line, function)

    def violation_text(self) -> Optional[Tuple[str, str]]:
        """(code, message) when the record shows a bad value, else None. Reads host memory only."""
        low, low_pos, high, high_pos = (int(v) for v in self.host.tolist())
        if low_pos < 0:  # the copy never ran (a kernel queued before it failed)
            return None
        if high >= self.size:
            which, value, pos = "largest", high, high_pos
        elif low < self.lower:
            which, value, pos = "smallest", low, low_pos
        else:
            return None
        coord, rest = [], pos
        for n in reversed(self.shape):
            coord.append(rest % n if n else 0)
            rest = rest // n if n else 0
        coord = list(reversed(coord))
        if self.wraps:
            return wrap_rule.CODE, wrap_rule.message(low, high, self.size, self.dim, value, tuple(coord), "", which)
        bad = f"; {which} bad value {value} at index{coord}"
        return oob.CODE, oob.message(self.spelled, low, high, self.size, self.dim if self.dim is not None else 0,
                                     bad, "", self.lower)

    def report_text(self) -> Optional[Tuple[str, str, str]]:
        found = self.violation_text()
        if found is None:
            return None
        code, message = found
        place = location.describe(self.where)
        return code, f"{code} {self.spelled}(): {message} [at {place}]", place


_pending: Deque[Record] = collections.deque()
_hooks_installed = False
_rings = {}  # on CUDA or not -> ([_MAX_PENDING, 4] host tensor, its numpy view); pinned for CUDA; never freed
_slots = itertools.count()
# device -> one CUDA event per ring row, made on first use and recorded again each time the row is: a
# fresh event per record cost an event's creation and destruction on every checked call
_events = {}
# the runtime patches Tensor.min/max (they make index values): its own reductions take the C methods
_min, _max = torch._C.TensorBase.min, torch._C.TensorBase.max


def _ring(on_cuda: bool):
    ring = _rings.get(on_cuda)
    if ring is None:
        host = torch.empty(_MAX_PENDING, 4, dtype=torch.long, device="cpu", pin_memory=on_cuda)
        if on_cuda:
            ctypes.pythonapi.Py_IncRef(ctypes.py_object(host))  # not even interpreter shutdown frees it
        ring = _rings[on_cuda] = (host, host.numpy())
    return ring


def record(index: torch.Tensor, lower: int, size: int, spelled: str, dim, wraps: bool) -> None:
    """Queue the device-side record of `index` against [lower, size); no host sync."""
    flat = index.reshape(-1)
    low, low_pos = _min(flat, 0)
    high, high_pos = _max(flat, 0)
    on_cuda = index.device.type == "cuda"
    host, rows = _ring(on_cuda)
    row = next(_slots) % _MAX_PENDING
    rows[row, 1] = -1  # "not landed", until the copy overwrites it with a position
    host.select(0, row).copy_(torch.stack([low.long(), low_pos, high.long(), high_pos]), non_blocking=on_cuda)
    event = _DoneEvent()
    if on_cuda:
        event = _event(index.device, row)
        event.record(torch.cuda.current_stream(index.device))  # the copy's stream, on the index's own GPU
    if len(_pending) >= _MAX_PENDING:
        _pending.popleft()
    _pending.append(Record(rows[row], event, tuple(index.shape), spelled, dim, lower, size, wraps,
                           location.user_frame()))
    _install_hooks()


def _event(device: torch.device, row: int):
    """Row `row`'s event on `device`. The record that last used the row has been read already, or is the
    oldest of a full queue, which record() drops right after writing the row again."""
    pool = _events.get(device)
    if pool is None:
        pool = _events[device] = [None] * _MAX_PENDING
    event = pool[row]
    if event is None:
        event = pool[row] = torch.cuda.Event()
    return event


def discard() -> None:
    """Checks are off: finished records are read now (a bad one printed); the others stay queued, with no
    wait for the device, for the next checked call, a device-side assert or the exit handler to read."""
    for _, text, _ in _landed():
        print(f"gather-lint: {text}", file=sys.stderr)


def has_pending() -> bool:
    return bool(_pending)


def poll(reporter) -> None:
    """Report finished records that show a bad value (raise at the first, or warn for each). No sync."""
    for code, text, place in _landed():
        from .errors import GatherLintError, GatherLintWarning

        if reporter.action == "raise":
            raise GatherLintError(text, code, place)
        warnings.warn(GatherLintWarning(text), stacklevel=3)


def _landed():
    """(code, text, place) of each finished record that shows a bad value, oldest first; each one read
    is dropped. Records finish in the order their stream runs them: the first unfinished one ends it."""
    while _pending and _finished(_pending[0]):
        found = _pending.popleft().report_text()
        if found is not None:
            yield found


def _finished(r: Record) -> bool:
    """The record's copy has landed. Once a device-side assert has fired, every CUDA call fails with it;
    the copy was queued before the failing kernel, so it has landed and the record names the cause."""
    try:
        return r.event.query()
    except RuntimeError:
        return True


def explain_pending() -> List[str]:
    """What the unread records say. Waits for their copies (at exit or on an error only); after a
    device-side assert the wait fails, but the copies, queued before the failing kernel, have landed."""
    texts = []
    for r in _pending:
        try:
            getattr(r.event, "synchronize", lambda: None)()
        except RuntimeError:
            pass
        found = r.report_text()
        if found is not None:
            texts.append(found[1])
    _pending.clear()
    return texts


def note_on(error: BaseException) -> None:
    """Add what the pending records say to `error` (a device-side assert, or torch's own error on CPU)."""
    if _pending and hasattr(error, "add_note"):
        for text in explain_pending():
            error.add_note(f"gather-lint: {text}")


def _print_pending(prefix: str) -> None:
    for text in explain_pending():
        print(f"{prefix}{text}", file=sys.stderr)


def _install_hooks() -> None:
    global _hooks_installed
    if _hooks_installed:
        return
    _hooks_installed = True
    previous = sys.excepthook

    def excepthook(kind, value, tb):
        if "device-side assert" in str(value) or "GL01" in str(value):
            _print_pending("gather-lint: the device-side assert comes from: ")
        previous(kind, value, tb)

    sys.excepthook = excepthook
    atexit.register(_print_pending, "gather-lint: ")
