"""GL020: `torch.sum(x * F.one_hot(a, n))` with no dim, whose 0-d result meets a per-row tensor.

Found by syntax at the meeting (an operator, or an elementwise loss): the 0-d operand is the sum
itself or a name assigned once from it; the summed tensor is a product, one factor of which is a
one-hot (F.one_hot, torch.eye(n)[ids], zeros(...).scatter_(1, ids, 1), through casts), directly or
through a name assigned once.
The one-hot's batch dim comes from the factors' shapes, and must be the other operand's first dim.
"""
from __future__ import annotations

import ast
import re
from typing import Optional, Tuple

from . import torch_aliases
from ..dims import must_equal, varies
from ..rules import gl020_one_hot_pick_summed_over_batch as rule
from .normalised_axis import assigned_value
from .text_scan import file_test, line_span, positions
from .values import TensorVal

_EYE_ROWS = re.compile(r"eye\([^()]*\)\[")


_SUM_OF_PRODUCT = re.compile(r"torch\.sum\(\s*[^(),]*\*[^(),]*\)")  # `torch.sum(a * b)`


@file_test
def spelled_in(text: str) -> bool:
    """A file or block to parse for the mistake: a one-hot, a dim-less sum, and a product (a one-hot
    made by scatter is in a block parsed for its scatter anyway). `T.sum(` of `import torch as T` too."""
    text = torch_aliases.expanded(text)
    return ("torch.sum(" in text or ".sum()" in text) and ("one_hot" in text or _EYE_ROWS.search(text) is not None) \
        and _pick_spelled(text)


def _pick_spelled(text: str) -> bool:
    """A dim-less sum of a product (`torch.sum(a * b)`, `(a * b).sum()`), or a one-hot in a product (a `*`
    on its line, no comment between): each read from its literal, not by a regex tried at every position."""
    if _SUM_OF_PRODUCT.search(text) is not None:
        return True
    for at in positions(text, ").sum()"):
        opened = text.rfind("(", 0, at)  # `(a * b).sum()`: the group holds no other parenthesis
        if opened != -1 and text.find(")", opened + 1, at) == -1 and "*" in text[opened + 1:at]:
            return True
    for needle in ("one_hot", "eye("):
        for at in positions(text, needle):
            start, end = line_span(text, at)
            before, after = text[start:at], text[at + len(needle):end]
            star = before.rfind("*")
            if star != -1 and "#" not in before[star + 1:]:
                return True
            star = after.find("*")
            if star != -1 and "#" not in after[:star]:
                return True
    return False


def _spelled_in_file(interp) -> bool:
    """A one-hot and a dim-less sum in the analysed function (or the file, for a script's top level),
    read once per function: name resolution walks the function, which most arithmetic never needs."""
    scope = interp.function if interp.function is not None else interp.source
    found = getattr(scope, "_gather_lint_one_hot", None)
    if found is None:
        if interp.function is None:
            text = interp.source.text
        else:
            text = "\n".join(interp.source.lines[scope.lineno - 1:scope.end_lineno or scope.lineno])
        text = torch_aliases.expanded(text)
        found = ("torch.sum(" in text or ".sum()" in text) and ("one_hot" in text or "eye(" in text or "scatter" in text)
        scope._gather_lint_one_hot = found
    return found


_CASTS = {"float", "double", "half", "bfloat16", "long", "int", "to", "type", "type_as", "detach"}


def check(interp, left_node, left, right_node, right) -> None:
    if not _spelled_in_file(interp):
        return  # most files hold no one-hot: no name resolution for their arithmetic
    for mine_node, mine, other_node, other in ((left_node, left, right_node, right), (right_node, right, left_node, left)):
        # a dim-less sum of a product with a one-hot is a 0-d tensor, even when the product's shape is unknown
        if not (mine is None or _zero_dim(mine)) or not isinstance(other, TensorVal) or other.shape is None or other.shape.variadic \
                or not other.shape.dims or mine_node is None:
            continue
        found = _one_hot_sum(interp, mine_node)
        if found is None:
            continue
        call, product = found
        picked = _rows(interp, product, call.lineno)
        if picked is None or not must_equal(picked.shape.dims[0], other.shape.dims[0]) or not varies(picked.shape.dims[0]):
            continue
        segment = interp.source.segment
        fix = f"({segment(product)}).sum(dim=-1)"
        interp.flag(call, rule.check_summed(segment(call), segment(product), picked.shape, segment(other_node),
                                            other.shape, other_node.lineno, fix), None)
        return


def _zero_dim(v) -> bool:
    return isinstance(v, TensorVal) and v.shape is not None and not v.shape.variadic and not v.shape.dims


def _resolved(interp, node, line: int):
    if not isinstance(node, ast.Name):
        return node
    # a script's top level: its names (a name also bound inside a function resolves to nothing)
    scope = interp.function if interp.function is not None else getattr(interp.module, "tree", None)
    return assigned_value(node, scope, line)


def _one_hot_sum(interp, node) -> Optional[Tuple[ast.Call, ast.BinOp]]:
    """(the sum call, the product it sums) for a dim-less sum of a product with a one-hot."""
    call = _resolved(interp, node, node.lineno)
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) or call.func.attr != "sum":
        return None
    if any(k.arg in ("dim", "axis", None) for k in call.keywords):
        return None
    owner = call.func.value
    if isinstance(owner, ast.Name) and owner.id == "torch":
        if len(call.args) != 1:
            return None
        summed = call.args[0]
    elif call.args:
        return None
    else:
        summed = owner
    product = _resolved(interp, summed, call.lineno)
    if not isinstance(product, ast.BinOp) or not isinstance(product.op, ast.Mult):
        return None
    if any(_is_one_hot(_resolved(interp, factor, call.lineno)) for factor in (product.left, product.right)):
        return call, product
    return None


def _is_one_hot(node) -> bool:
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _CASTS:
        node = node.func.value
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name == "one_hot" or _scatters_ones(node, name)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call):  # torch.eye(n)[ids]
        func = node.value.func
        return (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) == "eye"
    return False


def _rows(interp, product: ast.BinOp, line: int) -> Optional[TensorVal]:
    """What the picks are one per: the product's known [B, C] factor (a name's value), or the ids the
    one-hot was made from ([B]); its first dim is the batch the sum lost."""
    for factor in (product.left, product.right):
        value = interp.env.get(factor.id) if isinstance(factor, ast.Name) else None
        if isinstance(value, TensorVal) and value.shape is not None and not value.shape.variadic \
                and len(value.shape.dims) >= 2:
            return value
    for factor in (product.left, product.right):
        ids = _ids_of(_resolved(interp, factor, line))
        value = interp.env.get(ids.id) if isinstance(ids, ast.Name) else None
        if isinstance(value, TensorVal) and value.shape is not None and not value.shape.variadic and value.shape.dims:
            return value
    return None


def _scatters_ones(node: ast.Call, name: str) -> bool:
    """`torch.zeros(B, A).scatter_(1, actions.unsqueeze(1), 1)`: a one-hot made by scattering ones."""
    if name not in ("scatter", "scatter_") or len(node.args) != 3 or node.keywords:
        return False
    value = node.args[2]
    return isinstance(value, ast.Constant) and value.value in (1, 1.0) and not isinstance(value.value, bool)


def _ids_of(node):
    """`ids` of F.one_hot(ids, n) / torch.eye(n)[ids], through casts."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _CASTS:
        node = node.func.value
    if isinstance(node, ast.Call) and node.args and _is_one_hot(node):
        return node.args[1] if len(node.args) == 3 else node.args[0]  # scatter_(dim, ids, 1) / one_hot(ids, n)
    if isinstance(node, ast.Subscript) and _is_one_hot(node):
        return node.slice
    return None
