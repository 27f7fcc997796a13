"""The shared shape of every fix codemod: rewrite the nodes whose position is an edit's span.

Findings carry 1-based character spans from Python's AST; libcst's PositionProvider reports the
same spans (0-based columns, parentheses excluded like the AST), so a node is matched exactly.
"""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Tuple

import libcst as cst
from libcst.codemod import CodemodContext, VisitorBasedCodemodCommand
from libcst.metadata import PositionProvider

from ..findings import Edit

Span = Tuple[int, int, int, int]


def span_of(edit) -> Span:
    return tuple(edit[:4])  # an Edit, or a plain (line, col, end_line, end_col, text) tuple


class PositionedEdits(VisitorBasedCodemodCommand):
    """Applies the edits of the kinds in KINDS; `applied` lists the edits that were made.

    Subclasses define KINDS, TARGETS (the node types an edit may name) and rewrite(), which
    returns the new node, or None to leave the node alone (the edit is then not applied).
    """

    DESCRIPTION = "Apply gather-lint edits located by position."
    METADATA_DEPENDENCIES = (PositionProvider,)
    KINDS: Tuple[str, ...] = ()
    TARGETS: Tuple[type, ...] = (cst.BaseExpression,)

    def __init__(self, context: CodemodContext, edits: Iterable[Edit]) -> None:
        super().__init__(context)
        self.pending: Dict[Span, List[Edit]] = {}
        for edit in edits:
            if edit.kind in self.KINDS and edit not in self.pending.get(span_of(edit), []):
                self.pending.setdefault(span_of(edit), []).append(edit)
        self.applied: List[Edit] = []

    def on_leave(self, original_node, updated_node):
        updated_node = super().on_leave(original_node, updated_node)
        if not self.pending or not isinstance(original_node, self.targets()):
            return updated_node
        position = self.get_metadata(PositionProvider, original_node, None)
        if position is None:
            return updated_node
        key = (position.start.line, position.start.column + 1, position.end.line, position.end.column + 1)
        for edit in self.pending.pop(key, []):
            rewritten = self.rewrite(original_node, updated_node, edit)
            if rewritten is not None:
                updated_node = rewritten
                self.applied.append(edit)
        return updated_node

    def targets(self) -> Tuple[type, ...]:
        return self.TARGETS

    def rewrite(self, original_node, updated_node, edit: Edit) -> Optional[cst.CSTNode]:
        raise NotImplementedError


_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float, cst.SimpleString,
          cst.List, cst.Dict, cst.Set, cst.Tuple)


def parenthesized(node: cst.BaseExpression) -> cst.BaseExpression:
    """The node, in parentheses unless it is an atom that a `.method()` suffix can follow as it is."""
    if node.lpar or (isinstance(node, _ATOMS) and not isinstance(node, cst.Tuple)):
        return node
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def is_number(node: cst.BaseExpression) -> bool:
    """An int or float literal, possibly negated."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        node = node.expression
    return isinstance(node, (cst.Integer, cst.Float))
