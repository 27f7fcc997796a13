"""Asynchronous index checks that still name the user's line and the bad coordinate (CUDA).

Before the op, a few kernels on the index's own device compute a tiny record (any bad value, the
first bad flat position, its value, and the index's min and max); it is copied `non_blocking` into
pinned host memory and an event marks its completion. Nothing waits for it:

- the next checked call polls finished records (`event.query()`, no sync) and reports a bad one at
  the line that made it;
- when torch's `device-side assert triggered` surfaces (the record's copy ran before the failing
  kernel, so it survives), the exception hook and exit handler print what the records say.

The same code runs on CPU tensors (tests): there the copy is synchronous and the event a no-op.
"""
from __future__ import annotations

import atexit
import sys
import warnings
from dataclasses import dataclass
from typing import List, Optional, Tuple

import torch

from ..rules import gl010_wrapped_indices as wrap_rule
from ..rules import gl011_index_out_of_range as oob
from . import location

_MAX_PENDING = 4096  # records older than this are dropped unread (a loop that never reaches a poll)


class _DoneEvent:
    """The CPU stand-in for a CUDA event: the copy was synchronous."""

    @staticmethod
    def query() -> bool:
        return True


@dataclass
class Record:
    host: torch.Tensor  # [bad, flat position, value, min, max] once the copy lands
    event: object
    shape: Tuple[int, ...]  # of the (de-expanded) index the position refers to
    spelled: str
    dim: Optional[int]
    size: int
    wraps: bool  # take_along_dim with a dim: GL010 (torch wraps), else GL011
    where: Optional[tuple]  # the user's (file, line, function)

    def violation_text(self) -> Optional[Tuple[str, str]]:
        """(code, message) when the record shows a bad value, else None. Reads host memory only."""
        bad, pos, value, low, high = (int(v) for v in self.host.tolist())
        if not bad:
            return None
        coord, rest = [], pos
        for n in reversed(self.shape):
            coord.append(rest % n if n else 0)
            rest = rest // n if n else 0
        coord = list(reversed(coord))
        if self.wraps:
            return wrap_rule.CODE, wrap_rule.message(low, high, self.size, self.dim, value, tuple(coord), "")
        first = f"; first bad value {value} at index{coord}"
        return oob.CODE, oob.message(self.spelled, low, high, self.size, self.dim if self.dim is not None else 0,
                                     first, "")

    def report_text(self) -> Optional[Tuple[str, str, str]]:
        found = self.violation_text()
        if found is None:
            return None
        code, message = found
        place = location.describe(self.where)
        return code, f"{code} {self.spelled}(): {message} [at {place}]", place


_pending: List[Record] = []
_hooks_installed = False


def record(index: torch.Tensor, lower: int, size: int, spelled: str, dim, wraps: bool) -> None:
    """Queue the device-side record of `index` against [lower, size); no host sync."""
    flat = index.reshape(-1)
    bad = (flat < lower) | (flat >= size)
    pos = bad.to(torch.uint8).argmax()  # the first bad position (0 when none)
    low, high = torch.aminmax(flat)
    packed = torch.stack([bad.any().long(), pos.long(), flat.index_select(0, pos.view(1)).long()[0],
                          low.long(), high.long()])
    on_cuda = index.device.type == "cuda"
    # zeros, not empty: a copy that never ran (a kernel before it failed) must read as "no bad value"
    host = torch.zeros(5, dtype=torch.long, pin_memory=on_cuda)
    host.copy_(packed, non_blocking=on_cuda)
    event = _DoneEvent()
    if on_cuda:
        event = torch.cuda.Event()
        event.record()
    if len(_pending) >= _MAX_PENDING:
        del _pending[0]
    _pending.append(Record(host, event, tuple(index.shape), spelled, dim, size, wraps, location.user_frame()))
    _install_hooks()


def discard() -> None:
    """Checks are off: records left unread are dropped after a last look (exit handler semantics)."""
    _print_pending("gather-lint: ")


def has_pending() -> bool:
    return bool(_pending)


def poll(reporter) -> None:
    """Report the first finished record that shows a bad value; drop the finished ones. No sync."""
    global _pending
    done, waiting = [], []
    for r in _pending:
        (done if _finished(r) else waiting).append(r)
    _pending = waiting
    for r in done:
        found = r.report_text()
        if found is None:
            continue
        code, text, place = found
        from .errors import GatherLintError, GatherLintWarning

        if reporter.action == "raise":
            raise GatherLintError(text, code, place)
        warnings.warn(GatherLintWarning(text), stacklevel=3)


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
