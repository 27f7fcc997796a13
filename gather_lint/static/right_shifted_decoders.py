"""Decoder inputs made by shifting the labels right, so the decoder's logits at t already predict label t.

An encoder-decoder (or any teacher-forced decoder) reads ``shift_tokens_right(labels, ...)``: the start token,
then ``labels[:, :-1]``. Its logits at position t have read labels 0..t-1 and score ``labels[:, t]``: the
labels are already aligned with the logits. A loss that shifts again (a causal-LM helper pairing
``logits[:, :-1]`` with ``labels[:, 1:]``) scores each position against the token two steps ahead.

Shift-right functions are known by the library names (``shift_tokens_right``, T5's ``_shift_right``) or
by what a function of the file does: write its first parameter's ``[..., :-1]`` into ``[..., 1:]`` of a
new tensor.
"""
from __future__ import annotations

import ast
from typing import Optional, Set

from ..contract import WARNING, Violation
from . import tree_walk
from .token_windows import FULL, ONE, View, add_lin

_LIBRARY = frozenset({"shift_tokens_right", "_shift_right", "shift_right"})


def shifting_functions(tree: ast.Module) -> Set[str]:
    """The file's module functions that shift their first parameter right by one position."""
    found = set()
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.args.args and _writes_shifted(fn, fn.args.args[0].arg):
            found.add(fn.name)
    return found


def _writes_shifted(fn: ast.FunctionDef, param: str) -> bool:
    """`out[:, 1:] = param[:, :-1]` (also `[..., 1:]`, through `.clone()`) among fn's statements."""
    for stmt in tree_walk.statements(fn):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Subscript):
            value = stmt.value
            while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in ("clone", "detach"):
                value = value.func.value
            if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and value.value.id == param \
                    and _last_slice(stmt.targets[0].slice) == (1, None) and _last_slice(value.slice) == (None, -1):
                return True
    return False


def _last_slice(key) -> Optional[tuple]:
    """(lower, upper) of the last item of `[:, a:b]` / `[..., a:b]`, the items before it taking everything."""
    items = list(key.elts) if isinstance(key, ast.Tuple) else [key]
    last, lead = items[-1], items[:-1]
    if len(items) != 2 or not isinstance(last, ast.Slice) or last.step is not None:
        return None
    if not all(isinstance(i, ast.Constant) and i.value is Ellipsis or isinstance(i, ast.Slice) and
               i.lower is None and i.upper is None for i in lead):
        return None
    return _int(last.lower), _int(last.upper)


def _int(node) -> Optional[int]:
    if node is None:
        return None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return -node.operand.value
    return node.value if isinstance(node, ast.Constant) else "?"


def shifted_argument(call: ast.Call, known) -> Optional[ast.expr]:
    """The labels that `shift_tokens_right(labels, ...)` / `self._shift_right(labels)` shifts right, when the
    called function is a library one or one of the file's (`known()` gives those, found on first use)."""
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if name is None or not call.args or isinstance(call.args[0], ast.Starred):
        return None
    if isinstance(func, ast.Attribute) and not (isinstance(func.value, ast.Name) and func.value.id == "self") \
            and name != "shift_tokens_right":
        return None  # other_object.shift_right(...) is not known
    if name in _LIBRARY or (isinstance(func, ast.Name) and name in known()):
        return call.args[0]
    return None


def aligned_by_decoder(logits, ids) -> bool:
    """Logits (a token_windows View) made from `ids` shifted right, beside those ids whole: already aligned."""
    return isinstance(logits, View) and logits.logits and isinstance(ids, View) and ids.is_ids \
        and logits.base == ids.base and ids.window == FULL \
        and logits.window == (add_lin(FULL[0], ONE, -1), add_lin(FULL[1], ONE, -1))


def shifted_twice(helper: str, call: ast.Call, labels_text: str) -> Violation:
    return Violation(
        "GL007", WARNING,
        f"the logits come from a decoder that reads `{labels_text}` shifted right (each position has read the "
        f"labels before it), so the logits at position t already predict `{labels_text}[:, t]`; `{helper}` "
        f"shifts them again ([:-1] of the logits against [1:] of the labels): each position is scored against the "
        f"token two steps ahead, silently; use a loss that pairs the logits and the labels position by position",
        help="use a loss that does not shift (the decoder inputs are already the labels shifted right)")
