"""Items of a dict with constant keys (strings, tuples of them), written and read back: `out = {}; out["logits"] = x`
then `out["logits"]` or `out.get("logits")`, or looped over (`for name, t in batch.items()`: `t` has
what every item agrees on). A write under a literal key sets that key (the others
hold); a write under any other key leaves nothing known (config.py's literal no longer holds)."""
from __future__ import annotations

from typing import Optional

from .config import DictVal, _kept, constant_key
from .tensor_ops import Repeated
from .values import SeqVal, join


def written(owner: DictVal, key, value) -> Optional[DictVal]:
    """The dict after `owner[key] = value`."""
    constant = constant_key(key)
    if constant is None:
        return None
    items = [(k, v) for k, v in owner.items if k != constant]
    return DictVal(tuple(items) + ((constant, _kept(value)),))


def get(owner: DictVal, args):
    """`d.get("k")` / `d.get("k", default)`: the item when the dict holds the key; the default when every key
    of the dict is known and "k" is not one (`req.get("top_k", 0)` of a request that leaves top_k out); else
    unknown."""
    if not args or len(args) > 2 or constant_key(args[0]) is None:
        return None
    if constant_key(args[0]) in dict(owner.items):
        return owner.get(args[0])
    return args[1] if len(args) == 2 and owner.closed else None


def looped(owner: DictVal, method: str):
    """`d.values()` / `d.items()`: a list of like elements, each item's value joined with the others'
    (`d.keys()` gives names, which tell nothing)."""
    if not owner.items or method not in ("values", "items"):
        return None
    common = owner.items[0][1]
    for _, value in owner.items[1:]:
        common = join(common, value)
    if common is None:
        return None
    return Repeated(common if method == "values" else SeqVal((None, common)))
