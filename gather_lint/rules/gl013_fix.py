"""GL013's fix, a statement rewrite: `x[ids] += v` (or `x[ids] = x[ids] + v`) becomes
`x.index_put_((ids,), v, accumulate=True)`, which adds every repeated index; the op forms
`x.scatter_(d, ids, x.gather(d, ids) + v)` / `x.index_copy_(d, ids, x.index_select(d, ids) + v)`
become `x.scatter_add_(d, ids, v)` / `x.index_add_(d, ids, v)`.

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
    DESCRIPTION = "Rewrite x[ids] += v into x.index_put_((ids,), v, accumulate=True), and "\
                  "x.scatter_(d, ids, x.gather(d, ids) + v) into x.scatter_add_(d, ids, v)."
    KINDS = ("accumulate",)
    TARGETS = (cst.AugAssign, cst.Assign, cst.Call)

    def rewrite(self, original_node, updated_node, edit: Edit) -> Optional[cst.CSTNode]:
        if isinstance(updated_node, cst.Call):
            return _adder(updated_node)
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
        if negate:
            value = cst.UnaryOperation(operator=cst.Minus(), expression=parenthesized(value))
        if is_number(value):
            converted = parse_template_expression("{x}.new_tensor({v})", x=receiver, v=value)
        else:
            converted = parse_template_expression("{v}.to({x}.dtype)", x=receiver, v=parenthesized(value))
        call = parse_template_expression("{x}.index_put_(({i},), {v}, accumulate=True)",
                                         x=receiver, i=index, v=converted)
        return cst.Expr(value=call, semicolon=updated_node.semicolon)


# the overwriting op, the read it adds to, and the accumulating op that takes the increment alone
_ADDERS = {"scatter_": ("gather", "scatter_add_"), "scatter": ("gather", "scatter_add"),
           "index_copy_": ("index_select", "index_add_"), "index_copy": ("index_select", "index_add")}


def _adder(call: cst.Call) -> Optional[cst.Call]:
    """`x.scatter_(d, I, x.gather(d, I) + v)` -> `x.scatter_add_(d, I, v)` (index_copy_ -> index_add_);
    the rule offers it only when v is a tensor of the read's shape and dtype."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in _ADDERS:
        return None
    reader, adder = _ADDERS[func.attr.value]

    def is_read(node) -> bool:  # x.gather(...) on the same receiver
        return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == reader \
            and node.func.value.deep_equals(func.value)

    args = list(call.args)
    for k, arg in enumerate(args):
        payload = arg.value
        if not isinstance(payload, cst.BinaryOperation) or payload.lpar:
            continue
        if is_read(payload.left) and isinstance(payload.operator, (cst.Add, cst.Subtract)):
            increment = payload.right
            if isinstance(payload.operator, cst.Subtract):
                increment = cst.UnaryOperation(operator=cst.Minus(), expression=parenthesized(increment))
        elif is_read(payload.right) and isinstance(payload.operator, cst.Add):
            increment = payload.left
        else:
            continue
        args[k] = arg.with_changes(value=increment)
        return call.with_changes(func=func.with_changes(attr=cst.Name(adder)), args=args)
    return None


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
