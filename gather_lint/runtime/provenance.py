"""Facts about where a tensor came from, kept beside it without keeping it alive.

Two kinds: the dim an index's values were made for (`topk`/`argmax`/`argsort`/`sort`/`max(dim)`
results, GL004) and the singleton dim a gather left in its result (GL006). Keyed by id() with a
weak reference that drops the entry when the tensor dies, so an id reused later is never confused.
Views (`.unsqueeze`, `.expand`, `.view`) share their base's values: a lookup also tries `_base`.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, replace
from typing import Dict, Optional, Tuple

import torch


@dataclass(frozen=True)
class Origin:
    """Index values are positions in dim `axis` of a tensor of `shape` (what `how` computed)."""

    how: str  # "topk", "argmax", ...
    shape: Tuple[int, ...]
    axis: int
    version: int = -1  # the indices' version counter when made: a later in-place write bumps it

    @property
    def size(self) -> int:
        return self.shape[self.axis]

    def bounds(self, index: torch.Tensor, size: int) -> bool:
        """index's values are provably in [0, size): made in [0, self.size) and not written since
        (a view shares its base's version counter)."""
        if index.is_inference():  # inference tensors keep no version counter: nothing proves them unwritten
            return False
        return self.size <= size and index._version == self.version


class WeakFacts:
    """{tensor: fact} for live tensors only."""

    def __init__(self):
        self._facts: Dict[int, tuple] = {}

    def __bool__(self) -> bool:
        return bool(self._facts)

    def put(self, t: torch.Tensor, fact) -> None:
        key = id(t)
        facts = self._facts
        try:
            ref = weakref.ref(t, lambda _r, key=key: facts.pop(key, None))
        except TypeError:
            return
        facts[key] = (ref, fact)

    def get(self, t, through_base: bool = False):
        entry = self._facts.get(id(t))
        if entry is not None and entry[0]() is t:
            return entry[1]
        if through_base and isinstance(t, torch.Tensor):
            base = t._base
            if base is not None:
                entry = self._facts.get(id(base))
                if entry is not None and entry[0]() is base:
                    return entry[1]
        return None

    def clear(self) -> None:
        self._facts.clear()


ORIGINS = WeakFacts()  # index tensors -> Origin
KEPT = WeakFacts()  # gather results -> the singleton axis gather left
NORMALISED = WeakFacts()  # log_softmax results -> the dim they were normalised over


def origin_of(index: torch.Tensor) -> Optional[Origin]:
    return ORIGINS.get(index, through_base=True) if ORIGINS else None


def carry_origin(source, copy) -> None:
    """`idx = top.clone()`: the copy holds the same positions, while the source is unwritten since they were
    made (a write into the source before the copy may have put other values in)."""
    origin = origin_of(source) if isinstance(source, torch.Tensor) else None
    if origin is None or not isinstance(copy, torch.Tensor) or copy.shape != source.shape or copy.dtype != torch.long:
        return
    if source.is_inference() or copy.is_inference() or source._version != origin.version:
        return
    ORIGINS.put(copy, replace(origin, version=copy._version))


def note_indices(how: str, source, dim, result) -> None:
    """Record the origin of the indices a topk/sort/argmax/max(dim) call returned."""
    if not isinstance(source, torch.Tensor) or dim is None:
        return
    indices = result[1] if isinstance(result, tuple) else result
    if not isinstance(indices, torch.Tensor) or indices.dtype != torch.long:
        return
    rank = source.dim()
    if rank == 0 or not isinstance(dim, int) or not -rank <= dim < rank:
        return
    version = -1 if indices.is_inference() else indices._version
    ORIGINS.put(indices, Origin(how, tuple(source.shape), dim % rank, version))
