"""Config dicts with literal string keys: `cfg = {"batch": 2, "dim": 16}` then `cfg["batch"]`.

Scripts and tests size their tensors from such dicts (`torch.randn(cfg["batch"], cfg["dim"])`) and
pass them to helpers; their int items are sizes like any other. A dict that is written after it was
built is forgotten (see interpreter.assign), so an item is only read while the literal holds.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from .values import DimVal, Literal, SeqVal

MUTATORS = {"update", "pop", "popitem", "setdefault", "clear", "__setitem__"}


@dataclass(frozen=True)
class DictVal:
    items: Tuple[Tuple[str, object], ...]  # (key, DimVal or SeqVal of them) of the int items, (key, None) of the others

    def get(self, key) -> Optional[DimVal]:
        if isinstance(key, Literal) and isinstance(key.value, str):
            return dict(self.items).get(key.value)
        return None


def literal_dict(keys, values) -> Optional[DictVal]:
    """{"a": 1, ...} with every key a string literal; None otherwise (`**spread`, computed keys)."""
    items = []
    for key, item in zip(keys, values):
        if not (isinstance(key, Literal) and isinstance(key.value, str)):
            return None
        items.append((key.value, item if _is_setting(item) else None))
    return DictVal(tuple(items))


def keyword_dict(kwargs: dict) -> DictVal:
    """dict(batch=2, dim=16)."""
    return DictVal(tuple((k, v if _is_setting(v) else None) for k, v in kwargs.items()))


def _is_setting(item) -> bool:
    """A literal int, or a tuple of them (`"patch": (8, 16, 16)`, spread into sizes with `*`)."""
    if isinstance(item, SeqVal):
        return not item.names and all(_is_setting(i) and not isinstance(i, SeqVal) for i in item.items)
    return isinstance(item, DimVal) and isinstance(item.dim, int)
