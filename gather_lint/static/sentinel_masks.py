"""Where a mask stands at a tensor's padding value: does a replacement reach every padded entry?

`topk.masked_fill(topk == -1, P)`, `torch.where(topk != -1, topk, P)` and `topk[topk == -1] = P` each
replace the entries that hold -1, whatever they write there: afterwards the tensor holds no -1. The
question is asked of the mask's text: its value at the entries where the subject equals the sentinel.
A comparison of the subject with a number decides it (`x == s`, `x != s`, `x < 0`, `x.eq(s)`), and so
do `~`, `logical_not`, `&` and `|` of decided masks, and a name the function binds once to such a mask.
Anything else (a mask from elsewhere) leaves it undecided: the caller keeps what it knew.
"""
from __future__ import annotations

import ast
import operator
from typing import Optional

from . import tree_walk
from .interp_helpers import _with_sentinel
from .tensor_ops import SliceVal, as_int
from .values import DimVal, SeqVal, TensorVal

_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge}
_METHODS = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
            "ge": operator.ge, "less": operator.lt, "greater": operator.gt, "not_equal": operator.ne,
            "less_equal": operator.le, "greater_equal": operator.ge}
# `x < c` read from the other side: `c > x`
_MIRRORED = {operator.eq: operator.eq, operator.ne: operator.ne, operator.lt: operator.gt,
             operator.le: operator.ge, operator.gt: operator.lt, operator.ge: operator.le}


def at_sentinel(mask: ast.AST, subject: ast.AST, sentinel: int, function: Optional[ast.AST] = None,
                depth: int = 0, number=tree_walk.int_literal) -> Optional[bool]:
    """The mask's value wherever `subject` holds `sentinel`: True or False when the mask's text decides
    it, None when it does not. `number` reads a compared operand as an int (a literal by default; the
    analysis's value of a name, `x != PAD_ID`, where the caller knows it)."""
    if depth > 8:
        return None
    again = lambda m: at_sentinel(m, subject, sentinel, function, depth + 1, number)  # noqa: E731
    if isinstance(mask, ast.Compare) and len(mask.ops) == 1 and type(mask.ops[0]) in _COMPARE:
        return _compared(_COMPARE[type(mask.ops[0])], mask.left, mask.comparators[0], subject, sentinel, number)
    if isinstance(mask, ast.UnaryOp) and isinstance(mask.op, (ast.Invert, ast.Not)):
        return _not(again(mask.operand))
    if isinstance(mask, ast.BinOp) and isinstance(mask.op, (ast.BitAnd, ast.BitOr)):
        return _joined(isinstance(mask.op, ast.BitOr), again(mask.left), again(mask.right))
    if isinstance(mask, ast.Call) and isinstance(mask.func, ast.Attribute):
        name, receiver, args = mask.func.attr, mask.func.value, mask.args
        if not _is_torch(receiver) and not mask.keywords:  # x.eq(-1), m.logical_not(), a.logical_or(b)
            args = [receiver, *args]
        if name in _METHODS and len(args) == 2:
            return _compared(_METHODS[name], args[0], args[1], subject, sentinel, number)
        if name in ("logical_not", "bitwise_not") and len(args) == 1:
            return _not(again(args[0]))
        if name in ("logical_or", "logical_and", "bitwise_or", "bitwise_and") and len(args) == 2:
            return _joined(name.endswith("or"), again(args[0]), again(args[1]))
        return None
    if isinstance(mask, ast.Name) and function is not None:
        bound = _single_binding(function, mask.id, subject)
        return again(bound) if bound is not None else None
    return None


def _compared(op, left: ast.AST, right: ast.AST, subject: ast.AST, sentinel: int,
              number=tree_walk.int_literal) -> Optional[bool]:
    if _same(left, subject) and number(right) is not None:
        return op(sentinel, number(right))
    if _same(right, subject) and number(left) is not None:
        return _MIRRORED[op](sentinel, number(left))
    return None


def _not(v: Optional[bool]) -> Optional[bool]:
    return None if v is None else not v


def _joined(is_or: bool, a: Optional[bool], b: Optional[bool]) -> Optional[bool]:
    if is_or:
        return True if True in (a, b) else (False if a is False and b is False else None)
    return False if False in (a, b) else (True if a is True and b is True else None)


def _is_torch(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in ("torch", "np", "numpy")


def _same(a: ast.AST, b: ast.AST) -> bool:
    return type(a) is type(b) and ast.dump(a) == ast.dump(b)


def _single_binding(function: ast.AST, name: str, subject: ast.AST) -> Optional[ast.AST]:
    """The value of `name = <mask>` when that is the function's only binding of the name, and the
    subject (a plain name) is not bound again between it and its use: the mask still describes it."""
    found = []
    for node in tree_walk.all_nodes(function):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With, ast.NamedExpr)):
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            if isinstance(node, ast.With):
                targets = [item.optional_vars for item in node.items]
            for target in targets:
                # a name bound, not one read in a written subscript (`table[cols] = rows` binds no `cols`)
                if target is not None and any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
                                              for n in ast.walk(target)):
                    found.append(node)
    if len(found) != 1 or not isinstance(found[0], ast.Assign) or len(found[0].targets) != 1 \
            or not isinstance(found[0].targets[0], ast.Name):
        return None
    if isinstance(subject, ast.Name) and _rebound_after(function, subject.id, found[0].lineno, subject.lineno):
        return None
    return found[0].value


def _rebound_after(function: ast.AST, name: str, line: int, use: int) -> bool:
    """`name` is assigned again after `line` anywhere in the function (conservatively: at any later line), but
    for the statement at `use` that reads the subject and rebinds it (`seg = seg[keep]`: read first)."""
    for node in tree_walk.all_nodes(function):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store) and node.lineno > line \
                and node.lineno != use:
            return True
    return False


_POSITION_VIEWS = ("squeeze", "view", "flatten", "reshape", "ravel", "long", "to", "int")


def selecting_mask(key: ast.AST, subject: ast.AST, function: Optional[ast.AST], depth: int = 0) -> Optional[ast.AST]:
    """The mask a subscript key selects by: `x[m]` itself, or the positions of its true entries
    (`m.nonzero(as_tuple=True)[0]`, `torch.where(m)[0]`, `torch.nonzero(m).squeeze(1)`, a name the function
    binds once to one of these). None for any other key."""
    if depth > 6:
        return None
    again = lambda k: selecting_mask(k, subject, function, depth + 1)  # noqa: E731
    if isinstance(key, ast.Name) and function is not None:
        bound = _single_binding(function, key.id, subject)
        return again(bound) if bound is not None else None
    if isinstance(key, ast.Subscript) and isinstance(key.value, ast.Call) and isinstance(key.value.func, ast.Attribute):
        call, first = key.value, tree_walk.int_literal(key.slice) == 0
        column = isinstance(key.slice, ast.Tuple) and len(key.slice.elts) == 2 and tree_walk.int_literal(key.slice.elts[1]) == 0
        if first and call.func.attr == "where" and _is_torch(call.func.value) and len(call.args) == 1:
            return call.args[0]  # torch.where(m)[0]
        if call.func.attr in ("nonzero", "argwhere") and (first and _as_tuple(call) or column):
            return _nonzero_operand(call)
        return None
    if isinstance(key, ast.Call) and isinstance(key.func, ast.Attribute):
        if key.func.attr in _POSITION_VIEWS and not _is_torch(key.func.value):
            inner = key.func.value
            if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) \
                    and inner.func.attr in ("nonzero", "argwhere") and not _as_tuple(inner):
                return _nonzero_operand(inner)  # mask.nonzero().squeeze(1): one position per true entry
            return again(inner) if isinstance(inner, ast.Name) else None
        return key  # a mask made by a call (`x.lt(n)`)
    return key if isinstance(key, (ast.Compare, ast.UnaryOp, ast.BinOp)) else None


def _as_tuple(call: ast.Call) -> bool:
    return any(k.arg == "as_tuple" and isinstance(k.value, ast.Constant) and k.value.value is True for k in call.keywords)


def _nonzero_operand(call: ast.Call) -> Optional[ast.AST]:
    if _is_torch(call.func.value):
        return call.args[0] if call.args else None
    return call.func.value


def cut_to_a_length(key, picked):
    """`path[:accept_len]`, `ids[:, :n]` with a length the data decides (a count, a tensor): a prefix cut to
    what the code found to be real; padding written after the real entries (`path + [-1] * (width - len(path))`)
    is what such a cut leaves out, so the padding value is no longer certain to be among the values."""
    if not isinstance(picked, TensorVal) or picked.domain is None or picked.domain.sentinel is None:
        return picked
    items = key.items if isinstance(key, SeqVal) and not key.names else (key,)
    for item in items:
        if isinstance(item, SliceVal) and item.step is None and (item.lower is None or as_int(item.lower) == 0) \
                and item.upper is not None and as_int(item.upper) is None \
                and (isinstance(item.upper, TensorVal) or isinstance(item.upper, DimVal) and item.upper.dim is None):
            return _with_sentinel(picked, None, None)
    return picked
