"""Config dicts with literal string keys: `cfg = {"batch": 2, "dim": 16}` then `cfg["batch"]`.

Scripts and tests size their tensors from such dicts (`torch.randn(cfg["batch"], cfg["dim"])`) and
pass them to helpers; their int items are sizes like any other. A dict written under a literal key
gets that item (dict_items.py); written otherwise or mutated, it is forgotten (see statements.assign),
so an item is only read while the literal holds.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional, Tuple

from ..dims import value as dim_value
from .numpy_values import ArrayVal
from .scalars import NumberVal
from .values import JOINERS, DimVal, Literal, SeqVal, TensorVal, join

MUTATORS = {"update", "pop", "popitem", "setdefault", "clear", "__setitem__"}


@dataclass(frozen=True)
class DictVal:
    items: Tuple[Tuple[str, object], ...]  # (key, value) of int sizes, tuples of them and tensors with facts, else (key, None)
    # every key the dict holds is among items (a literal, dict(k=v)): a key not among them is missing, so
    # `d.get(k, default)` is the default; False where only some keys are known (a tokenizer's encoding)
    closed: bool = True

    def get(self, key):
        constant = constant_key(key)
        return dict(self.items).get(constant) if constant is not None else None

    def int_values(self) -> Optional[tuple]:
        """Every value, when each is a known int (an alphabet, a label map): what a lookup of an unknown key gives."""
        found = []
        for _, item in self.items:
            number = dim_value(item.dim) if type(item) is DimVal else None
            if type(number) is not int:
                return None
            found.append(number)
        return tuple(sorted(set(found))) if found else None


def constant_key(key):
    """A dict key the code writes as a constant: a string, or a tuple of strings (`("user", "rates", "item")`, a
    graph library's edge type); None for anything else."""
    if isinstance(key, Literal) and isinstance(key.value, str):
        return key.value
    if type(key) is SeqVal and not key.names and key.items and all(
            isinstance(k, Literal) and isinstance(k.value, str) for k in key.items):
        return tuple(k.value for k in key.items)
    return None


def _joined_dicts(a: DictVal, b: DictVal) -> Optional[DictVal]:
    """Two paths' (or two list items') dicts of the same keys: each key's value as both agree."""
    if not isinstance(a, DictVal) or not isinstance(b, DictVal) or [k for k, _ in a.items] != [k for k, _ in b.items]:
        return None
    return DictVal(tuple((k, join(x, y)) for (k, x), (_, y) in zip(a.items, b.items)), a.closed and b.closed)


JOINERS[DictVal] = _joined_dicts


def literal_dict(keys, values) -> Optional[DictVal]:
    """{"a": 1, ...} with every key a constant (constant_key); None otherwise (`**spread`, computed keys)."""
    items = []
    for key, item in zip(keys, values):
        constant = constant_key(key)
        if constant is None:
            return None
        items.append((constant, _kept(item)))
    return DictVal(tuple(items))


def keyword_dict(kwargs: dict) -> DictVal:
    """dict(batch=2, dim=16)."""
    return DictVal(tuple((k, _kept(v)) for k, v in kwargs.items()))


def _kept(item):
    """An int size, a tuple of them, or a tensor with something known: batch dicts (`{"obs": obs,
    "act": act}`) carry their tensors' facts into the loss helpers they are passed to, like a tuple
    of them would."""
    if _is_setting(item) or _is_records(item):
        return item
    if isinstance(item, TensorVal) and (item.shape is not None or item.dtype is not None or item.domain is not None):
        return item
    if type(item) is DimVal and item.dim is None:
        return item  # `"action": int(a)`: an int, its value unknown (a list of such records makes an int64 tensor)
    if isinstance(item, (NumberVal, ArrayVal)):
        return item  # a dataset item's float or array: the batch a DataLoader makes of it (data_loaders)
    if isinstance(item, DictVal) and item.int_values() is not None:
        return item  # `"alphabet": {"A": 0, ..., "N": 4}` in a config: a map of ints its readers look up
    return None


def _is_setting(item) -> bool:
    """A literal int, or a tuple of them (`"patch": (8, 16, 16)`, spread into sizes with `*`); a float,
    bool or str literal (`"alpha": 0.25`, `"alpha": [0.25, 0.75]`: what a loss built from the config gets)."""
    if isinstance(item, SeqVal):
        return not item.names and all(_is_setting(i) and not isinstance(i, SeqVal) for i in item.items)
    return _is_scalar_setting(item)


def _is_records(item) -> bool:
    """A short list of records of literals (`"edges": [(0, 1), (1, 2)]`): each record a setting, as the rows
    torch.tensor() makes of them or a comprehension reads one by one."""
    return isinstance(item, SeqVal) and not item.names and 0 < len(item.items) <= _MOST_RECORDS \
        and all(isinstance(i, SeqVal) and _is_setting(i) for i in item.items)


_MOST_RECORDS = 64


def _is_scalar_setting(item) -> bool:
    return (isinstance(item, DimVal) and isinstance(dim_value(item.dim), int)) or (
        isinstance(item, Literal) and isinstance(item.value, (float, bool, str)))


def namespace_class(call: ast.Call, evaluate) -> Optional[DictVal]:
    """`type("Config", (), {"steps": 1000})()`: an instance of a class made on the spot, its attributes
    the dict's items (the same reads as a SimpleNamespace's)."""
    made = call.func
    if call.args or call.keywords or not isinstance(made, ast.Call) or not isinstance(made.func, ast.Name) \
            or made.func.id != "type" or len(made.args) != 3 or made.keywords:
        return None
    items = evaluate(made.args[2])
    return items if isinstance(items, DictVal) else None
