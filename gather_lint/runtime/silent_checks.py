"""Checks for calls torch accepts but that compute the wrong thing, beyond the shape contract:
GL004 from a recorded index origin, GL013 a scatter or index_copy_ giving one position different values, GL014 zeros taking part in a reduce."""
from __future__ import annotations

from typing import List

import torch

from ..contract import Site, Violation
import gather_lint.runtime.values as values
from .origin_checks import wrong_dim
from .counting_checks import scattered as counted_once
from .overwrite_checks import copy_back_overwrites, index_copy_overwrites, reduce_includes_zeros, scatter_overwrites


def readable(t: torch.Tensor, level: str) -> bool:
    """Values can be read here without a device sync and outside tracing."""
    if torch.compiler.is_compiling():
        return False
    return values.has_values(t) and (t.device.type == "cpu" or level == "sync")


def origin_mistakes(site: Site, bound: dict) -> List[Violation]:
    """GL004 from where the index came from: decided before the values (which may also be out of range)."""
    found = wrong_dim(site, bound["input"], bound[site.op.index_param])
    return [found] if found is not None else []


def value_mistakes(site: Site, bound: dict, level: str) -> List[Violation]:
    inp, index = bound["input"], bound[site.op.index_param]
    if site.op.name not in ("scatter", "scatter_reduce", "index_copy") or not (readable(inp, level) and readable(index, level)):
        return []
    src = bound.get("src", bound.get("source"))
    if isinstance(src, torch.Tensor) and not readable(src, level):
        return []
    for check in (scatter_overwrites, counted_once, reduce_includes_zeros, copy_back_overwrites, index_copy_overwrites):
        found = check(site, bound)
        if found is not None:
            return [found]
    return []
