"""A row max put back into a column: `next_q.max(1)[0].unsqueeze(1)`, `best[:, None]`, `.view(-1, 1)`.

One value per row [B], made a column [B, 1] again, is the keepdim reduction spelled in two steps:
met by a per-row vector [B] (rewards, dones) it broadcasts to [B, B] the same way. It is marked like
a keepdim column (head_columns.HeadMark), so GL006 reports it where it meets that vector. Asked only
when a 1-d tensor just became [B, 1]; the syntax is read after the shapes point at it.
"""
from __future__ import annotations

from ..dims import value
from . import per_row_values
from .head_columns import HeadMark
from .values import TensorVal

_COLUMN_MAKERS = frozenset({"unsqueeze", "view", "reshape"})


def column(interp, node, owner_node, owner, result, method: str = "unsqueeze"):
    """`result` of `owner.method(...)` (or `owner[:, None]`), marked when it made a row max a column."""
    if method not in _COLUMN_MAKERS or not (isinstance(owner, TensorVal) and isinstance(result, TensorVal)):
        return result
    before, after = owner.shape, result.shape
    if before is None or after is None or before.variadic or after.variadic or len(before.dims) != 1 \
            or len(after.dims) != 2 or value(after.dims[1]) != 1 or after.dims[0] != before.dims[0]:
        return result
    if result.kept_singleton is not None:
        return result
    made = per_row_values.made_by(interp, owner_node)
    if made is None:
        return result
    return result.with_(kept_singleton=1, kept_at=HeadMark(node, "an unsqueezed row max's"))
