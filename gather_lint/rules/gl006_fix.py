"""GL006's fix for the reverse form: `.squeeze()` with no dim on a gathered `[1, L, 1]` also drops
the batch dim of 1; it becomes `.squeeze(-1)`, gather's dim only."""
from __future__ import annotations

from typing import Optional

import libcst as cst

from ..codemods.base import PositionedEdits
from ..findings import Edit


class SqueezeDim(PositionedEdits):
    DESCRIPTION = "Give a .squeeze() with no dim the dim gather kept."
    KINDS = ("argument",)
    TARGETS = (cst.Call,)

    def rewrite(self, original_node, updated_node, edit: Edit) -> Optional[cst.CSTNode]:
        func = updated_node.func
        if updated_node.args or not isinstance(func, cst.Attribute) or func.attr.value not in ("squeeze", "squeeze_"):
            return None
        return updated_node.with_changes(args=[cst.Arg(value=cst.parse_expression(edit.text))])
