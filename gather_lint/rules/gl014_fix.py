"""GL014's fix: `include_self=False` on the scatter_reduce call, laid out like the call's other
arguments (one per line with a trailing comma stays so; comments stay on their lines)."""
from __future__ import annotations

from typing import Optional

import libcst as cst

from ..codemods.base import PositionedEdits
from ..findings import Edit


class AddKeyword(PositionedEdits):
    DESCRIPTION = "Add a keyword argument to a call (scatter_reduce's include_self=False)."
    KINDS = ("keyword",)
    TARGETS = (cst.Call,)

    def rewrite(self, original_node, updated_node, edit: Edit) -> Optional[cst.CSTNode]:
        name, _, value = edit.text.partition("=")
        if not name.isidentifier() or not value:
            return None
        args = list(updated_node.args)
        for k, arg in enumerate(args):  # given already (include_self=True): change its value
            if arg.keyword is not None and arg.keyword.value == name:
                args[k] = arg.with_changes(value=cst.parse_expression(value))
                return updated_node.with_changes(args=args)
        new = cst.Arg(value=cst.parse_expression(value), keyword=cst.Name(name),
                      equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                                            whitespace_after=cst.SimpleWhitespace("")))
        if not args:
            return updated_node.with_changes(args=[new])
        last = args[-1]
        before_last = args[-2].comma.whitespace_after if len(args) > 1 and isinstance(args[-2].comma, cst.Comma) \
            else updated_node.whitespace_before_args
        if isinstance(last.comma, cst.Comma):
            # trailing comma: the new argument goes on its own line; the old last line keeps its comment
            after = last.comma.whitespace_after
            if isinstance(after, cst.ParenthesizedWhitespace) and isinstance(before_last, cst.ParenthesizedWhitespace):
                between = after.with_changes(indent=before_last.indent, last_line=before_last.last_line, empty_lines=[])
                closing = cst.ParenthesizedWhitespace(first_line=cst.TrailingWhitespace(), empty_lines=[],
                                                      indent=after.indent, last_line=after.last_line)
            else:
                between, closing = cst.SimpleWhitespace(" "), after
            args[-1] = last.with_changes(comma=last.comma.with_changes(whitespace_after=between))
            args.append(new.with_changes(comma=cst.Comma(whitespace_after=closing)))
        else:
            between = before_last if isinstance(last.whitespace_after_arg, cst.ParenthesizedWhitespace) \
                and isinstance(before_last, cst.ParenthesizedWhitespace) else cst.SimpleWhitespace(" ")
            args[-1] = last.with_changes(comma=cst.Comma(whitespace_after=between),
                                         whitespace_after_arg=cst.SimpleWhitespace(""))
            args.append(new.with_changes(whitespace_after_arg=last.whitespace_after_arg))
        return updated_node.with_changes(args=args)
