"""The user's own spelling of the two operands of the expression running at their line, for messages.

`loss = -(picked * advantages).mean()` reaches Tensor.__mul__ with two tensors and no names; the
message should say `picked` and `advantages`, as the static report does. The user's frame says which
instruction runs (Python 3.11+: its exact source span, so `a * b` among several products on a line
is the right one); that span parsed gives the operands: a binary operator's two sides, a call's two
tensor arguments (`torch.sub(a, b)`, `F.mse_loss(a, b)`, `a.sub(b)`), or `x += y`'s target and value.
Before 3.11 the line alone is parsed, and only an expression of that kind that the line holds once
is used. None whenever the text cannot be had (no source file, a compiled frame, an ambiguous line).
"""
from __future__ import annotations

import ast
import linecache
import re
from typing import List, Optional, Tuple

from .location import user_frame_object

_LIMIT = 48  # as the static report shortens source text
_SPACES = re.compile(r"\s+")
_OPERATOR_NODES = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "/": ast.Div}
_MODULES = ("torch", "F", "nn", "functional")  # `torch.sub(a, b)`, `F.mse_loss(a, b)`: no receiver operand


def operands(symbol: str) -> Optional[Tuple[str, str]]:
    """(left text, right text) of the operator `symbol` (`+`, `*`) or the two-tensor call running at the
    user's line, in the order the user wrote them; None when they cannot be told."""
    found = operand_nodes(symbol)
    if found is None:
        return None
    _, left, right, text = found
    left, right = ast.get_source_segment(text, left), ast.get_source_segment(text, right)
    return (_short(left), _short(right)) if left and right else None


def operand_nodes(symbol: str):
    """(the user's frame, left node, right node, the source text they were parsed from) of the operation
    `symbol` running at the user's line; None when they cannot be told."""
    frame = user_frame_object()
    if frame is None:
        return None
    lines = linecache.getlines(frame.f_code.co_filename, frame.f_globals)
    if not lines:
        return None
    node, text = _running(frame, lines)
    if node is None:
        node, text = _only_one(lines, frame.f_lineno, symbol)
    found = _sides(node, symbol) if node is not None else None
    return None if found is None else (frame, found[0], found[1], text)


def _running(frame, lines: List[str]):
    """(node, its text) of the instruction the frame runs, from its source span (Python 3.11+)."""
    positions = getattr(frame.f_code, "co_positions", None)
    if positions is None or frame.f_lasti < 0:
        return None, ""
    try:
        span = list(positions())[frame.f_lasti // 2]
    except IndexError:
        return None, ""
    start, end, col, end_col = span
    if None in span or not 0 < start <= end <= len(lines):
        return None, ""
    chunk = [line.encode("utf-8") for line in lines[start - 1:end]]
    chunk[-1] = chunk[-1][:end_col]
    chunk[0] = chunk[0][col:]
    text = b"".join(chunk).decode("utf-8", "replace")
    return _parsed(text), text


def _parsed(text: str) -> Optional[ast.AST]:
    """The expression (or `x += y` statement) the text holds; None when it is neither."""
    for wrap in (text, f"({text})"):
        try:
            return ast.parse(wrap, mode="eval").body
        except SyntaxError:
            pass
    try:
        module = ast.parse(text.strip())
    except SyntaxError:
        return None
    return module.body[0] if len(module.body) == 1 and isinstance(module.body[0], ast.AugAssign) else None


def _only_one(lines: List[str], lineno: int, symbol: str):
    """The line's one expression of the kind `symbol` names (before 3.11: no column to tell two apart)."""
    if not 0 < lineno <= len(lines):
        return None, ""
    text = lines[lineno - 1].strip()
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None, ""
    kind = _OPERATOR_NODES.get(symbol)
    found = [n for n in ast.walk(tree)
             if (kind is not None and (isinstance(n, ast.BinOp) and isinstance(n.op, kind)
                                       or isinstance(n, ast.AugAssign) and isinstance(n.op, kind)))
             or isinstance(n, ast.Call) and _called(n) == symbol]
    return (found[0], text) if len(found) == 1 else (None, "")


def _called(node: ast.Call) -> Optional[str]:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else (func.id if isinstance(func, ast.Name) else None)


def _sides(node: ast.AST, symbol: str) -> Optional[Tuple[ast.AST, ast.AST]]:
    """The two operands, only where the node is the operation asked about: torch code run from the user's
    line (a functional that multiplies inside) must not lend its call's arguments as the operator's sides."""
    kind = _OPERATOR_NODES.get(symbol)
    if isinstance(node, (ast.BinOp, ast.AugAssign)):
        if kind is None or not isinstance(node.op, kind):
            return None
        return (node.left, node.right) if isinstance(node, ast.BinOp) else (node.target, node.value)
    if not isinstance(node, ast.Call) or _called(node) != symbol:
        return None
    keywords = {k.arg: k.value for k in node.keywords if k.arg}
    func = node.func
    args = list(node.args)
    if isinstance(func, ast.Attribute) and not _is_module(func.value):  # a.sub(b): the receiver comes first
        args = [func.value] + args
    for name in ("input", "other", "target"):
        if name in keywords:
            args.append(keywords[name])
    return (args[0], args[1]) if len(args) >= 2 else None


def _is_module(node: ast.AST) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id in _MODULES


def _short(text: str) -> str:
    text = _SPACES.sub(" ", text).strip()
    return text if len(text) <= _LIMIT else text[:_LIMIT - 3] + "..."
