"""`torch.arange(n)` as a value: each of 0..n-1 once. The range checks read its top, n - 1, as reached (GL011:
positions past a table), and the repeat checks read no repeats in it. A part of it (`pos[:, :seq_len]`,
`pos[pos < 16]`, `masked_fill`) may leave the top out: the claim goes, as present_values forgets other
reached tops; what keeps every value (`unsqueeze`, `expand`, `view`, `[None]`, a cast) keeps it."""
from __future__ import annotations

from dataclasses import replace
from typing import Optional, Tuple

from ..contract import Domain
from ..dims import Dim, dim_text, value
from .tensor_ops import whole_slice
from .values import DimVal, Literal, SeqVal, TensorVal

ORIGIN = "arange("


def arguments(args: list, kwargs: dict) -> Optional[dict]:
    """{start, end, step} as the call gives them, by position or keyword: `arange(n)` binds end alone,
    `arange(0, n, step=k)` all three. None where torch takes no such call (more than three numbers)."""
    if len(args) > 3:
        return None
    bound = dict(zip(("end",) if len(args) == 1 and "end" not in kwargs else ("start", "end", "step"), args))
    bound.update({key: kwargs[key] for key in ("start", "end", "step") if key in kwargs})
    return bound


def start_and_step(bound: dict) -> Tuple[Optional[int], Optional[int]]:
    """The start and step of an arange call's `arguments`, 0 and 1 where not given; None for one given but not a
    known int."""
    def number(key: str, default: int) -> Optional[int]:
        given = bound.get(key)
        return default if given is None else value(given.dim) if isinstance(given, DimVal) else None
    return number("start", 0), number("step", 1)


def domain(end: Dim, start: int = 0, step: int = 1, written_end: Dim = None) -> Optional[Domain]:
    """The values of `torch.arange(start, end)` (start a known int >= 0), when end is a known or named size; with a
    step, `end` is one past the last value (of `arange(0, 7, 3)`, 7) and `written_end` the call's own."""
    if end is None or start < 0:
        return None
    top = value(end)
    reach = f"{dim_text(end)} - 1" if top is None else str(top - 1)
    called = dim_text(end) if start == 0 and step == 1 else f"{start}, {dim_text(end)}" if step == 1 \
        else f"{start}, {dim_text(written_end)}, {step}"
    return Domain(end, origin=f"{ORIGIN}{called}) positions, up to {reach}", bound_only=True)


def made(t) -> bool:
    return isinstance(t, TensorVal) and t.domain is not None and t.domain.origin.startswith(ORIGIN)


def part(key, picked):
    """`positions[key]`: the claim stays only where the key keeps every value (new axes, whole slices)."""
    if not made(picked) or _keeps_every_value(key):
        return picked
    return picked.with_(domain=replace(picked.domain, size=None, origin=""))


def _keeps_every_value(key) -> bool:
    items = key.items if isinstance(key, SeqVal) and not key.names else (key,)
    return all(whole_slice(k) or isinstance(k, Literal) and k.value in (None, Ellipsis) for k in items)
