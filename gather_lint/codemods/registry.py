"""Every fix kind and the codemod that applies it, collected from the rules' FIX_CODEMODS;
ApplyEdits runs them all in one pass."""
from __future__ import annotations

import importlib
from typing import Dict, Optional, Tuple

import libcst as cst

from ..findings import Edit
from ..rules import ALL_RULES
from .base import PositionedEdits


def load(dotted: str) -> type:
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


CODEMODS = tuple(dict.fromkeys(load(path) for rule in ALL_RULES for path in getattr(rule, "FIX_CODEMODS", ())))
BY_KIND: Dict[str, type] = {kind: codemod for codemod in CODEMODS for kind in codemod.KINDS}


class ApplyEdits(PositionedEdits):
    """All kinds in one traversal: nested edits (an index inside a call that also gets a suffix)
    compose, since each node is rewritten after its children, and positions stay the original's."""

    DESCRIPTION = "Apply gather-lint's edits of every kind."
    KINDS = tuple(BY_KIND)
    METADATA_DEPENDENCIES = tuple(dict.fromkeys(dep for codemod in CODEMODS for dep in codemod.METADATA_DEPENDENCIES))

    def targets(self) -> Tuple[type, ...]:
        return (cst.BaseExpression, cst.AugAssign, cst.Assign)

    def rewrite(self, original_node, updated_node, edit: Edit) -> Optional[cst.CSTNode]:
        codemod = BY_KIND[edit.kind]
        if not isinstance(original_node, codemod.TARGETS):
            return None
        return codemod.rewrite(self, original_node, updated_node, edit)
