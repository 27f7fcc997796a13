"""The gather/scatter family: spellings and how arguments map to roles.

Both halves normalise a call through this table, so a rule sees the same roles
(``input``, ``dim``, ``index``, ``src``/``source``/``value``) whatever way the user spelled it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, FrozenSet, Tuple

GATHER = "gather"  # out = index.shape; index.size(d) <= input.size(d) for d != dim
SCATTER = "scatter"  # self/src/index ranks equal; index <= self (d != dim), index <= src (all d)
INDEX = "index"  # index is a vector; output replaces input.size(dim) by index.numel()
TAKE_ALONG = "take_along_dim"  # gather with broadcasting, values wrapped modulo size

INT32_OR_64 = frozenset({"int32", "int64"})
INT64_ONLY = frozenset({"int64"})


@dataclass(frozen=True)
class Op:
    name: str  # canonical name without a trailing underscore
    family: str
    # Argument names after ``input``, in positional order (method form omits ``input``).
    params: Tuple[str, ...]
    index_dtypes: FrozenSet[str]
    in_place: bool = False
    has_function: bool = True  # torch.<name>(input, ...) exists

    @property
    def spelled(self) -> str:
        return self.name + ("_" if self.in_place else "")

    @property
    def index_param(self) -> str:
        return "indices" if self.family == TAKE_ALONG else "index"

    @property
    def payload_param(self):
        """The tensor or scalar written by scatter/index ops, if any."""
        for name in ("src", "source", "value"):
            if name in self.params:
                return name
        return None


def _table() -> Dict[str, Op]:
    base = [
        Op("gather", GATHER, ("dim", "index", "sparse_grad"), INT32_OR_64),
        Op("scatter", SCATTER, ("dim", "index", "src", "reduce"), INT32_OR_64),
        Op("scatter_add", SCATTER, ("dim", "index", "src"), INT32_OR_64),
        Op("scatter_reduce", SCATTER, ("dim", "index", "src", "reduce", "include_self"), INT32_OR_64),
        Op("index_select", INDEX, ("dim", "index"), INT32_OR_64),
        Op("index_add", INDEX, ("dim", "index", "source", "alpha"), INT32_OR_64),
        Op("index_copy", INDEX, ("dim", "index", "source"), INT64_ONLY),
        Op("index_fill", INDEX, ("dim", "index", "value"), INT64_ONLY),
        Op("take_along_dim", TAKE_ALONG, ("indices", "dim"), INT64_ONLY),
    ]
    table = {op.name: op for op in base}
    for op in base:
        if op.family in (SCATTER, INDEX) and op.name != "index_select":  # torch has no index_select_
            table[op.name + "_"] = Op(op.name, op.family, op.params, op.index_dtypes, in_place=True, has_function=False)
    return table


OPS: Dict[str, Op] = _table()
OP_NAMES: FrozenSet[str] = frozenset(OPS)
FUNCTION_NAMES: FrozenSet[str] = frozenset(n for n, op in OPS.items() if op.has_function)


# torch's argument parser takes NumPy's `axis=` for any `dim=` (`x.index_select(axis=0, index=i)`)
KEYWORD_ALIASES = {"axis": "dim"}


def torch_keywords(keywords, aliases: Dict[str, str] = KEYWORD_ALIASES):
    """A call's keywords under torch's own names: `axis=` is `dim=` unless both are given (then torch refuses
    the call, and the alias stays to say so)."""
    if not any(alias in keywords for alias in aliases):
        return keywords
    named = dict(keywords)
    for alias, name in aliases.items():
        if alias in named and name not in named:
            named[name] = named.pop(alias)
    return named


def bind_arguments(op: Op, positional, keywords, method: bool) -> Dict[str, object]:
    """Map a call's arguments to parameter names; works on AST nodes and on runtime values alike.

    Returns None when the call cannot be this op (too many positionals, unknown keyword).
    """
    keywords = torch_keywords(keywords)
    names = op.params if method else ("input",) + op.params
    if op.name == "scatter" and not method:
        names = ("input", "dim", "index", "src", "reduce")
    if len(positional) > len(names):
        return None
    bound = dict(zip(names, positional))
    allowed = set(names) | {"out", "value", "reduce", "include_self", "alpha", "sparse_grad"}
    for key, value in keywords.items():
        if key not in allowed or key in bound:
            return None
        bound[key] = value
    if op.name == "scatter" and "value" in bound:
        bound.pop("src", None)
    return bound
