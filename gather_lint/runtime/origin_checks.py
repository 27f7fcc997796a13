"""GL004 at run time: indices that topk/argmax/argsort/sort/max(dim) made for one dim, used along another.

The evidence is the recorded origin (provenance.Origin), not a guess from sizes: the values are
positions in dim `a` of a tensor shaped like the op's input, and the op uses them along a different
dim whose size differs. Same-size dims are left alone (a square score matrix may mean either).
"""
from __future__ import annotations

from typing import Optional

import torch

from ..contract import Site, Violation
from ..dims import normalize_dim
from ..ops import INDEX
from ..rules import gl004_index_from_wrong_dim as rule
from .provenance import origin_of


def wrong_dim(site: Site, inp: torch.Tensor, index: torch.Tensor) -> Optional[Violation]:
    origin = origin_of(index)
    if origin is None or site.op.family == INDEX or not site.dim_given:
        return None
    rank = inp.dim()
    axis = normalize_dim(site.dim, rank)
    if axis is None or rank != len(origin.shape) or index.dim() != rank or axis == origin.axis:
        return None
    shape = tuple(inp.shape)
    size = origin.size
    if shape[origin.axis] != size or shape[axis] == size:
        return None
    described = f"{origin.how} over dim {origin.axis} of a {list(origin.shape)} tensor (positions in [0, {size}))"
    return rule.violation(site, described, f"size-{size}", origin.axis, certain_raise=size > shape[axis])
