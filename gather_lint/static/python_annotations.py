"""Python container annotations as abstract values: `parents: list[int]`, `-> list[list[int]]`.

`torch.tensor(path)` for a `path` taken from a `list[list[int]]` is a 1-d int64 tensor whatever the
list's length, so gathering a 2-d input with it is a rank mismatch. The annotation gives the element
kind (its rank when turned into a tensor), never a length.
"""
from __future__ import annotations

import ast
from typing import Optional

_SEQUENCES = {"list", "List", "Sequence", "MutableSequence", "Iterable", "tuple", "Tuple"}


def unquoted(node: Optional[ast.AST]) -> Optional[ast.AST]:
    """A string annotation (`"list[int]"`, from `from __future__ import annotations` style) as the
    expression it spells; None when it does not parse; any other node as it is."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return None
    return node


def sequence_of(node: Optional[ast.AST]):
    """Repeated(element) for `list[int]`, `List[float]`, `Sequence[list[int]]`, `tuple[int, ...]`;
    None for anything else (tensors, optional values, unions, plain `list`)."""
    node = unquoted(node)
    if not isinstance(node, (ast.Name, ast.Subscript)):
        return None  # most parameters: no annotation, or a tensor type's attribute chain
    from .scalars import NumberVal
    from .tensor_ops import Repeated
    from .values import DimVal

    if isinstance(node, ast.Name):
        return DimVal(None) if node.id == "int" else (NumberVal() if node.id == "float" else None)
    head = node.value.attr if isinstance(node.value, ast.Attribute) else getattr(node.value, "id", None)
    if head not in _SEQUENCES:
        return None
    inner = node.slice
    if isinstance(inner, ast.Tuple):  # tuple[int, ...] only: a fixed tuple's items may differ
        if head not in ("tuple", "Tuple") or len(inner.elts) != 2 or not (
                isinstance(inner.elts[1], ast.Constant) and inner.elts[1].value is Ellipsis):
            return None
        inner = inner.elts[0]
    elif head in ("tuple", "Tuple"):
        return None  # tuple[int] is a 1-tuple: not a run of ints
    element = sequence_of(inner)
    return Repeated(element) if element is not None else None


def tensor_of(data, dtype: Optional[str] = None):
    """`torch.tensor(ids)` for `ids: list[int]` (1-d), `list[list[float]]` (2-d): the rank and dtype."""
    from ..dims import Shape
    from .scalars import NumberVal
    from .tensor_ops import Repeated
    from .values import DimVal, TensorVal

    rank, element = 0, data
    while isinstance(element, Repeated):
        rank, element = rank + 1, element.element
    if rank == 0 or not isinstance(element, (DimVal, NumberVal)):
        return None
    made = "int64" if isinstance(element, DimVal) else "float32"
    return TensorVal(Shape((None,) * rank), dtype or made, origin="constructor")
