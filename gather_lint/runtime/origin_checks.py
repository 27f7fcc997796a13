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
from .shift_checks import fed_rows


def wrong_dim(site: Site, inp: torch.Tensor, index: torch.Tensor) -> Optional[Violation]:
    if site.op.family == INDEX or not site.dim_given:
        return None
    origin = origin_of(index)
    if origin is None:
        return _token_ids(site, inp, index)
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


def _token_ids(site: Site, inp: torch.Tensor, index: torch.Tensor) -> Optional[Violation]:
    """Ids an embedding of V rows looked up (unchanged since), used along a dim of another size of an input
    whose one other dim has V entries: token ids along the sequence dim, as the static GL004 reports it."""
    rank = inp.dim()
    axis = normalize_dim(site.dim, rank)
    if axis is None or index.dim() != rank:
        return None
    rows = fed_rows(index)
    shape = tuple(inp.shape)
    if rows is None or shape[axis] == rows:
        return None
    meant = [k for k, n in enumerate(shape) if n == rows and k != axis]
    if len(meant) != 1:
        return None
    described = f"token ids looked up in an embedding of {rows} rows (ids in [0, {rows}))"
    return rule.violation(site, described, f"size-{rows}", meant[0], certain_raise=False)
