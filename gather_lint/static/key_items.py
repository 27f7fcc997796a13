"""The items of a subscript's key, each beside the value the analysis has for it: `x[a, :, b]` gives
(a, value of a), (:, slice), (b, value of b)."""
from __future__ import annotations

import ast
from typing import List, Optional, Tuple

from .values import SeqVal


def aligned(node: ast.Subscript, key) -> Optional[List[Tuple[ast.expr, object]]]:
    """(element, value) per key item, or None when they do not line up one to one (`x[*idx]`, a key whose
    items are not known one by one)."""
    elements = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    items = key.items if isinstance(key, SeqVal) and isinstance(node.slice, ast.Tuple) else (key,)
    if len(items) != len(elements) or any(isinstance(e, ast.Starred) for e in elements):
        return None
    return list(zip(elements, items))


def after_slices_only(elements, position: int) -> bool:
    """Every item before `position` is a plain slice, so the item there indexes the dim of its own number."""
    return all(isinstance(e, ast.Slice) for e in elements[:position])
