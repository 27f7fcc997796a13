"""GL033's fix: a keyword spelled as another op of the family spells it is renamed in place
(`scatter_add(..., source=s)` -> `src=s`), keeping the argument's value, layout and comments."""
from __future__ import annotations

from typing import Optional

import libcst as cst

from ..codemods.base import PositionedEdits
from ..findings import Edit


class RenameKeyword(PositionedEdits):
    DESCRIPTION = "Rename a keyword argument of a call (scatter_add's source= to src=)."
    KINDS = ("rename_keyword",)
    TARGETS = (cst.Call,)

    def rewrite(self, original_node, updated_node, edit: Edit) -> Optional[cst.CSTNode]:
        old, _, new = edit.text.partition("=")
        if not old.isidentifier() or not new.isidentifier():
            return None
        args = list(updated_node.args)
        if any(arg.keyword is not None and arg.keyword.value == new for arg in args):
            return None  # the new name is given already: renaming would repeat it
        for k, arg in enumerate(args):
            if arg.keyword is not None and arg.keyword.value == old:
                args[k] = arg.with_changes(keyword=arg.keyword.with_changes(value=new))
                return updated_node.with_changes(args=args)
        return None
