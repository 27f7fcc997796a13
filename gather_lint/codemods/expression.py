"""Index and dim edits at the call, shared by several rules:

- AppendToExpression: `.unsqueeze(1)` / `.expand(-1, 128)` on the index (GL001, GL005), `.squeeze(-1)`
  on a gathered result (GL001, GL006), `.long()` on a float index (GL008);
- ReplaceExpression: a new literal dim (GL004).
The node keeps its own formatting and comments; only the suffix or the literal is new.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst
from libcst.helpers import parse_template_expression

from ..findings import Edit
from .base import PositionedEdits, parenthesized


class AppendToExpression(PositionedEdits):
    DESCRIPTION = "Append a method call to an expression (an index's reshaping, a result's squeeze)."
    KINDS = ("append", "wrap_append")

    def rewrite(self, original_node, updated_node, edit: Edit) -> Optional[cst.CSTNode]:
        if not edit.text.startswith("."):
            return None
        return parse_template_expression("{target}" + edit.text, target=parenthesized(updated_node))


class ReplaceExpression(PositionedEdits):
    DESCRIPTION = "Replace an expression (a call's dim) with another."
    KINDS = ("replace",)

    def rewrite(self, original_node, updated_node, edit: Edit) -> Optional[cst.CSTNode]:
        new = cst.parse_expression(edit.text)
        return new.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
