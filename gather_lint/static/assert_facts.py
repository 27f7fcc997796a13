"""Shape facts from asserts, which real code uses as checked documentation:

    B, T, V = logits.shape
    assert labels.shape == (B, T)
    assert x.dim() == 3 and x.shape[-1] == D
    assert mask.shape == labels.shape

After the assert the code runs only where it held, so what it states is a fact. A fact only fills
what is unknown: where the code already knows better, the code wins.
"""
from __future__ import annotations

import ast
from typing import Callable, Iterator, Optional, Tuple

from ..dims import Shape, normalize_dim
from .values import DimVal, SeqVal, TensorVal
from . import tree_walk

Fact = Tuple[str, Optional[Shape], Optional[Tuple[int, object]]]  # (name, whole shape, or (axis, dim))


_owner = tree_walk.env_key  # `x` / `self.x` as an environment key.


def _whole_shape_of(node) -> Optional[str]:
    """x.shape / x.size() -> the key of x."""
    if isinstance(node, ast.Attribute) and node.attr == "shape":
        return _owner(node.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "size" \
            and not node.args and not node.keywords:
        return _owner(node.func.value)
    return None


def _rank_of(node) -> Optional[str]:
    """x.dim() / x.ndim / x.ndimension() / len(x.shape) -> the key of x."""
    if isinstance(node, ast.Attribute) and node.attr == "ndim":
        return _owner(node.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("dim", "ndimension") \
            and not node.args:
        return _owner(node.func.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1:
        return _whole_shape_of(node.args[0])
    return None


def _one_dim_of(node) -> Optional[Tuple[str, int]]:
    """x.shape[i] / x.size(i) with a literal i -> (key of x, i)."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
        i = tree_walk.int_literal(node.slice)
        key = _owner(node.value.value)
        return (key, i) if key is not None and i is not None else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "size" \
            and len(node.args) == 1 and not node.keywords:
        i = tree_walk.int_literal(node.args[0])
        key = _owner(node.func.value)
        return (key, i) if key is not None and i is not None else None
    return None


def _simple(node) -> bool:
    """Nothing in it is a call other than .size()/.dim(): evaluating it again reports nothing."""
    return all(not isinstance(n, ast.Call) or (isinstance(n.func, ast.Attribute) and n.func.attr in ("size", "dim"))
               for n in ast.walk(node))


def facts(test: ast.AST, evaluate: Callable) -> Iterator[Fact]:
    """What an assert's test states about tensor shapes."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        for value in test.values:
            yield from facts(value, evaluate)
        return
    if not isinstance(test, ast.Compare) or len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return
    left, right = test.left, test.comparators[0]
    for a, b in ((left, right), (right, left)):
        if not _simple(b):
            continue
        key = _whole_shape_of(a)
        if key is not None:
            sizes = evaluate(b)
            if isinstance(sizes, SeqVal) and not sizes.names:
                yield key, Shape(tuple(v.dim if isinstance(v, DimVal) else None for v in sizes.items)), None
            elif isinstance(sizes, TensorVal):  # torch.Size objects are not tensors: never here
                continue
            continue
        key = _rank_of(a)
        rank = evaluate(b)
        if key is not None and isinstance(rank, DimVal) and isinstance(rank.dim, int) and 0 <= rank.dim <= 16:
            yield key, Shape((None,) * rank.dim), None
            continue
        one = _one_dim_of(a)
        size = evaluate(b)
        if one is not None and isinstance(size, DimVal) and size.dim is not None:
            yield one[0], None, (one[1], size.dim)


def apply(old, shape: Optional[Shape], one_dim) -> Optional[TensorVal]:
    """The value of a tensor after an assert about it; None when nothing new is learnt."""
    if old is not None and not isinstance(old, TensorVal):
        return None
    base = old or TensorVal()
    if shape is not None:
        if base.shape is None:
            return base.with_(shape=shape, origin="assert")
        if base.shape.variadic or len(base.shape.dims) != len(shape.dims):
            return None
        dims = tuple(seen if seen is not None else said for seen, said in zip(base.shape.dims, shape.dims))
        return base.with_(shape=Shape(dims)) if dims != base.shape.dims else None
    axis, dim = one_dim
    s = base.shape
    if s is None or s.variadic:
        return None
    k = normalize_dim(axis, len(s.dims))
    if k is None or s.dims[k] is not None or not s.dims:
        return None
    dims = list(s.dims)
    dims[k] = dim
    return base.with_(shape=Shape(tuple(dims)))
