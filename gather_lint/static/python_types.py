"""`isinstance(alpha, (float, int))` and `alpha is None` with a value the analysis knows.

Loss and model constructors branch on what they were given: a focal loss turns a float `alpha`
into `torch.tensor([alpha, 1 - alpha])` and a list into `torch.tensor(alpha)`. With the constructor
argument known (a literal at the call that built the instance), the branch that runs is certain, and
the attribute it builds reaches the methods that index with it. Undecided stays undecided: a value is
only ever said to be of a type when the analysis made it (a literal, a list display), never because a
docstring or an annotation says so.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import FrozenSet, Optional

from .tensor_ops import Repeated
from .values import JOINERS, DimVal, Literal, SeqVal, TensorVal


@dataclass(frozen=True)
class ListVal(SeqVal):
    """A SeqVal known to be a Python list (a `[...]` display), not a tuple or a torch.Size."""


def _joined_lists(a: ListVal, b: ListVal):
    """Two lists of ints of different lengths (`[1, 2, 3]` and `[4, 5]`, the ids of two records): a list of
    ints, its length unknown (`torch.tensor(ids)` is 1-d int64 whichever it is)."""
    def ints(v) -> bool:  # a list display of ints, or a list of ints of unknown length already
        return (isinstance(v, ListVal) and not v.names and bool(v.items) and all(isinstance(i, DimVal) for i in v.items)) \
            or (isinstance(v, Repeated) and v.element == DimVal(None))
    return Repeated(DimVal(None)) if ints(a) and ints(b) else None


JOINERS[ListVal] = JOINERS[Repeated] = _joined_lists


# type names whose instances the analysis can rule out for a value it tracks
_CLOSED = frozenset({"float", "int", "bool", "str", "bytes", "complex", "list", "tuple", "dict", "set", "NoneType",
                     "Tensor", "ndarray"})
_SUPERTYPES = {"bool": {"bool", "int"}}  # isinstance(True, int) holds
# collections.abc classes, as the closed types above that are instances of them: a tensor (or None) is no
# Mapping and no Sequence, so `elif isinstance(elem, Mapping):` after a tensor's own branch never runs for one
_ABSTRACT_MEMBERS = {
    "Mapping": {"dict"}, "MutableMapping": {"dict"},
    "Sequence": {"list", "tuple", "str", "bytes"}, "MutableSequence": {"list"},
    "Set": {"set"}, "MutableSet": {"set"}, "AbstractSet": {"set"},
}


def _possible(value) -> Optional[FrozenSet[str]]:
    """The types a tracked value may have at run time (None: anything)."""
    from .config import DictVal
    from .scalars import NumberVal

    if isinstance(value, Literal):
        v = value.value
        if v is None:
            return frozenset({"NoneType"})
        if isinstance(v, (bool, float, str)):
            return frozenset({type(v).__name__})
        return None  # dtype markers, Ellipsis, ...
    if isinstance(value, DimVal):
        return frozenset({"int"})
    if isinstance(value, ListVal):
        return frozenset({"list"})
    if isinstance(value, SeqVal) and not value.names:
        return frozenset({"list", "tuple"})
    if isinstance(value, DictVal):
        return frozenset({"dict"})
    if isinstance(value, NumberVal):
        return frozenset({"float", "int", "NoneType"})  # a float default may be overridden by an int or None
    if isinstance(value, TensorVal):
        return frozenset({"Tensor", "NoneType"})  # an optional tensor parameter may be None
    return None


def _checked(node: ast.AST) -> Optional[FrozenSet[str]]:
    """Type names of isinstance's second argument: `float`, `(float, int)`, `torch.Tensor`, `np.ndarray`."""
    parts = node.elts if isinstance(node, ast.Tuple) else [node]
    names = set()
    for part in parts:
        if isinstance(part, ast.Name):
            names.add(part.id)
        elif isinstance(part, ast.Attribute):
            names.add(part.attr)
        else:
            return None
    return frozenset(names)


def isinstance_of(value, types_node: ast.AST) -> Optional[Literal]:
    """Literal(True/False) when `isinstance(value, types)` is certain, else None."""
    possible, checked = _possible(value), _checked(types_node)
    if possible is None or checked is None:
        return None
    checked = frozenset().union(*(_ABSTRACT_MEMBERS.get(name, {name}) for name in checked))
    matches = [bool(_SUPERTYPES.get(kind, {kind}) & checked) for kind in possible]
    if all(matches):
        return Literal(True)
    if not any(matches) and checked <= _CLOSED:
        return Literal(False)
    return None


def never_none(value) -> bool:
    """Values the analysis built itself, which cannot be None: displays, dicts, numbers it computed."""
    from .config import DictVal
    from .modules import InstanceVal, is_layer

    return isinstance(value, (SeqVal, DictVal, DimVal, InstanceVal)) or is_layer(value)
