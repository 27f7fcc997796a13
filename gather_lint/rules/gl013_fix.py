"""GL013's fix, a statement rewrite: `x[ids] += v` (or `x[ids] = x[ids] + v`) becomes
`x.index_put_((ids,), v, accumulate=True)`, which adds every repeated index.

index_put_ wants a tensor of x's dtype: a number literal becomes `x.new_tensor(v)`, a tensor
`v.to(x.dtype)` (the rule offers the fix only when the value is one of the two); `-=` negates the
value. Only one index expression and a plain receiver (a name or attribute, read twice) are rewritten.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst
from libcst.helpers import parse_template_expression

from ..codemods.base import PositionedEdits, is_number, parenthesized
from ..findings import Edit


class AccumulateIndexPut(PositionedEdits):
    DESCRIPTION = "Rewrite x[ids] += v into x.index_put_((ids,), v, accumulate=True)."
    KINDS = ("accumulate",)
    TARGETS = (cst.AugAssign, cst.Assign)

    def rewrite(self, original_node, updated_node, edit: Edit) -> Optional[cst.CSTNode]:
        if isinstance(updated_node, cst.AugAssign):
            target, value = updated_node.target, updated_node.value
            negate = isinstance(updated_node.operator, cst.SubtractAssign)
            if not isinstance(updated_node.operator, (cst.AddAssign, cst.SubtractAssign)):
                return None
        else:
            if len(updated_node.targets) != 1:
                return None
            target = updated_node.targets[0].target
            split = _increment(target, updated_node.value)
            if split is None:
                return None
            value, negate = split
        if not isinstance(target, cst.Subscript) or not isinstance(target.value, (cst.Name, cst.Attribute)):
            return None
        if len(target.slice) != 1 or not isinstance(target.slice[0].slice, cst.Index):
            return None
        receiver, index = target.value, target.slice[0].slice.value
        if is_number(value):
            text = "{x}.new_tensor({v})"
        else:
            text = "{v}.to({x}.dtype)"
            value = parenthesized(value.with_changes(lpar=[], rpar=[]) if value.lpar else value)
        if negate:
            value = cst.UnaryOperation(operator=cst.Minus(), expression=parenthesized(value))
            if not is_number(value):
                value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        converted = parse_template_expression(text, x=receiver, v=value)
        call = parse_template_expression("{x}.index_put_(({i},), {v}, accumulate=True)",
                                         x=receiver, i=index, v=converted)
        return cst.Expr(value=call, semicolon=updated_node.semicolon)


def _increment(target, value):
    """(v, negate) for `x[i] + v`, `v + x[i]` or `x[i] - v` where x[i] is the target; None otherwise."""
    if not isinstance(value, cst.BinaryOperation) or value.lpar:
        return None
    if isinstance(value.operator, cst.Add):
        if value.left.deep_equals(target):
            return value.right, False
        if value.right.deep_equals(target):
            return value.left, False
    if isinstance(value.operator, cst.Subtract) and value.left.deep_equals(target):
        return value.right, True
    return None
