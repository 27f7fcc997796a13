"""GL008's fix where the float was made: the true division `/` that turned integer indices into
floats becomes the floor division `//` (torch.floor_divide: integers stay integers, and for the
non-negative values an index holds it is the value `/` then `.long()` would give)."""
from __future__ import annotations

from typing import Optional

import libcst as cst

from ..codemods.base import PositionedEdits
from ..findings import Edit


class FloorDivision(PositionedEdits):
    DESCRIPTION = "Make the true division that produced a float index a floor division."
    KINDS = ("floor_division",)
    TARGETS = (cst.BinaryOperation,)

    def rewrite(self, original_node, updated_node, edit: Edit) -> Optional[cst.CSTNode]:
        op = updated_node.operator
        if not isinstance(op, cst.Divide):
            return None
        return updated_node.with_changes(
            operator=cst.FloorDivide(whitespace_before=op.whitespace_before, whitespace_after=op.whitespace_after))
