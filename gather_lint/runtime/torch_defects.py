"""Calls torch itself computes wrong, found by their effect: the result compared with what the call means.

- gather along dim 0 on CPU with an int32 index expanded over every other dim (stride 0 there: the
  row-selection idiom `x.gather(0, ids.unsqueeze(1).expand(-1, D))` with int32 ids): torch 2.13 returns
  other rows than the index names, without an error. Checked only where that layout is met, by one
  index_select of the rows the index names, so a torch that computes it right is never reported (GL008).
"""
from __future__ import annotations

from typing import Optional

import torch

from ..contract import Violation
from ..rules import gl008_index_dtype as index_dtype


def misread_rows(inp, dim, index, result) -> Optional[Violation]:
    """GL008 where `inp.gather(dim, index)` gave `result` other than the rows the index names."""
    if not isinstance(index, torch.Tensor) or index.dtype != torch.int32 or not isinstance(inp, torch.Tensor) \
            or not isinstance(result, torch.Tensor) or inp.device.type != "cpu" or index.dim() < 2 \
            or not isinstance(dim, int) or inp.dim() != index.dim() or dim % inp.dim() != 0 \
            or any(index.stride(k) != 0 for k in range(1, index.dim())) or index.shape[0] == 0 or index.numel() == 0:
        return None
    rows = index[(slice(None),) + (0,) * (index.dim() - 1)].long()  # the one row number per result row
    window = (slice(None),) + tuple(slice(0, n) for n in index.shape[1:])  # each input row as the result holds it
    with torch.no_grad():
        meant = inp.index_select(0, rows)[window]
        right = (result == meant) | (result != result) & (meant != meant)  # NaN read from a NaN is right
        wrong = (~right).reshape(index.shape[0], -1).any(dim=1).nonzero()
    if wrong.numel() == 0:
        return None
    row = int(wrong[0, 0])
    same = (inp[window] == result[row]).reshape(inp.shape[0], -1).all(dim=1).nonzero()
    return index_dtype.check_misread_int32_rows(row, int(same[0, 0]) if same.numel() else None, int(rows[row]))
