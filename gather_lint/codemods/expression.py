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
from libcst.metadata import PositionProvider, ScopeProvider

from ..findings import Edit
from .base import PositionedEdits, parenthesized


class AppendToExpression(PositionedEdits):
    DESCRIPTION = "Append a method call to an expression (an index's reshaping, a result's squeeze)."
    KINDS = ("append", "wrap_append")
    METADATA_DEPENDENCIES = (PositionProvider, ScopeProvider)

    def rewrite(self, original_node, updated_node, edit: Edit) -> Optional[cst.CSTNode]:
        if not edit.text.startswith(".") or not names_defined(self, original_node, "_" + edit.text):
            return None
        return parse_template_expression("{target}" + edit.text, target=parenthesized(updated_node))


class ReplaceExpression(PositionedEdits):
    DESCRIPTION = "Replace an expression (a call's dim) with another."
    KINDS = ("replace",)
    METADATA_DEPENDENCIES = (PositionProvider, ScopeProvider)

    def rewrite(self, original_node, updated_node, edit: Edit) -> Optional[cst.CSTNode]:
        if not names_defined(self, original_node, edit.text):
            return None
        new = cst.parse_expression(edit.text)
        return new.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


def names_defined(codemod, node, text: str) -> bool:
    """Every plain name the new text reads (`hidden_size` in `.expand(-1, hidden_size)`) is bound, or
    already read, where the node is: a size named in a caller is not in scope in the function it was
    passed to."""
    scope = codemod.get_metadata(ScopeProvider, node, None)
    if scope is None:
        return False
    expression = cst.parse_expression(text)
    wanted = set()

    class Reads(cst.CSTVisitor):
        def visit_Attribute(self, attribute: cst.Attribute) -> bool:
            attribute.value.visit(self)  # `x.size`: only `x` is a name read here
            return False

        def visit_Name(self, name: cst.Name) -> None:
            wanted.add(name.value)

    expression.visit(Reads())
    wanted.discard("_")  # the placeholder for the node itself
    # a name the scope already reads is readable there too: a notebook cell reads the earlier cells' names
    return all(name in scope or bool(scope.accesses[name]) for name in wanted)
