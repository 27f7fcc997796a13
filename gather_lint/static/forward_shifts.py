"""The next-token shift a model's forward applies itself before its per-token gather.

The usual causal-LM forward computes logits from its ids and pairs them as
``logits[..., :-1, :]`` with ``labels[..., 1:]`` (``shift_logits`` / ``shift_labels``), then gathers the
labels per position. Read syntactically, through names assigned once and calls that keep positions, the
pair is (labels parameter, window of the logits, window of the labels): what the forward does to whatever
the caller passes. A forward that slices more than once, or along an unknown axis, gives None.
"""
from __future__ import annotations

import ast
from typing import Callable, Dict, List, Optional, Tuple

from ..contract import WARNING, Violation
from .token_windows import FULL, cut_window, linear_of
from .tree_walk import full_slice

_KEEP_METHODS = ("log_softmax", "softmax", "contiguous", "float", "double", "to", "detach", "clone", "log",
                 "masked_fill", "clamp", "clamp_min", "long")
_MODULE_FUNCTIONS = ("log_softmax", "softmax")


def sliced_pair(source: ast.expr, index: ast.expr, ids: str, params: List[str],
                assigned: Dict[str, Optional[ast.expr]], keeps_positions: Callable) -> Optional[Tuple[str, tuple, tuple]]:
    """(labels parameter, logits window, labels window) for `source.gather(-1, index)` in a forward whose
    logits come from `ids`, when at least one side is sliced once along the sequence."""
    column = _column_of(index)
    if column is None:
        return None
    labels = _peel(column, assigned, logits=False)
    logits = _peel(source, assigned, logits=True)
    if labels is None or logits is None:
        return None
    (root, labels_window), (inner, logits_window) = labels, logits
    if not isinstance(root, ast.Name) or root.id not in params or root.id == ids or root.id in assigned:
        return None
    if (logits_window, labels_window) == (FULL, FULL) or not keeps_positions(inner, ids, assigned, set()):
        return None
    return root.id, logits_window, labels_window


def _column_of(index: ast.expr) -> Optional[ast.expr]:
    """`x.unsqueeze(-1)` / `x.unsqueeze(2)` / `x[..., None]`: x."""
    if isinstance(index, ast.Call) and isinstance(index.func, ast.Attribute) and index.func.attr == "unsqueeze":
        return index.func.value
    if isinstance(index, ast.Subscript) and isinstance(index.slice, ast.Tuple) and index.slice.elts \
            and isinstance(index.slice.elts[-1], ast.Constant) and index.slice.elts[-1].value is None:
        items = index.slice.elts[:-1]
        if len(items) == 1 and isinstance(items[0], ast.Constant) and items[0].value is Ellipsis:
            return index.value
    return None


def _peel(node: ast.expr, assigned, logits: bool):
    """(the expression under at most one sequence slice, the slice's window) through position-keeping calls
    and names assigned once; None for two slices or a slice this cannot place."""
    window = FULL
    sliced = False
    for _ in range(8):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            receiver = node.func.value
            if isinstance(receiver, ast.Name) and receiver.id in ("F", "torch", "functional"):
                if node.func.attr not in _MODULE_FUNCTIONS or not node.args:
                    return node, window
                node = node.args[0]
                continue
            if node.func.attr not in _KEEP_METHODS:
                return node, window
            node = receiver
        elif isinstance(node, ast.Name) and assigned.get(node.id) is not None:
            node = assigned[node.id]
        elif isinstance(node, ast.Subscript):
            if sliced:
                return None
            seq = _sequence_slice(node.slice, logits)
            if seq is None:
                return node, window
            lower = linear_of(seq.lower) if seq.lower is not None else None
            upper = linear_of(seq.upper) if seq.upper is not None else None
            if (seq.lower is not None and lower is None) or (seq.upper is not None and upper is None):
                return None
            window = cut_window(FULL, lower, upper)
            if window is None:
                return None
            sliced = True
            node = node.value
        else:
            return node, window
    return None


def _sequence_slice(key, logits: bool) -> Optional[ast.Slice]:
    """The slice on the sequence dim: ids [B, L] as `[:, a:b]` / `[..., a:b]`, logits [B, L, V] as
    `[:, a:b, :]` / `[..., a:b, :]` / `[:, a:b]`."""
    items = list(key.elts) if isinstance(key, ast.Tuple) else [key]

    def lead(i):
        return full_slice(i) or (isinstance(i, ast.Constant) and i.value is Ellipsis)

    if logits and len(items) == 3 and lead(items[0]) and full_slice(items[2]):
        seq = items[1]
    elif len(items) == 2 and lead(items[0]) and (logits or not full_slice(items[1])):
        seq = items[1]
    else:
        return None
    return seq if isinstance(seq, ast.Slice) and seq.step is None else None


def shifted_twice(cls: Optional[str], call: ast.Call, ids: ast.expr, labels: ast.expr, gather: ast.AST) -> Violation:
    """`model(ids, labels)` with labels already one token ahead of the ids, into a forward that shifts again."""
    owner = f"`{cls}.forward`" if cls else "the model's forward"
    return Violation(
        "GL007", WARNING,
        f"{owner} shifts its labels itself ([:-1] of the logits against [1:] of the labels) before scoring them here, "
        f"but `{ast.unparse(call)}` at line {call.lineno} passes `{ast.unparse(labels)}` already one token ahead of "
        f"`{ast.unparse(ids)}` (cut from one sequence a token apart): the logits at position t are scored "
        f"against the token at t+2 and one more position is dropped, silently; pass labels aligned with the ids "
        f"(the same tokens) and let the forward shift them, or drop the forward's shift")
