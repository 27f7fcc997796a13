"""Rows picked by one boolean mask: `x[alive]` and `y[alive]` hold the same number of rows.

A bool mask keeps an unknown count of rows, but every tensor it picks from keeps the same count:
`rewards[alive]` [K, 1] and `critic(obs[alive]).max(1)[0]` [K] meet as a column and a vector of the
same K (GL006's [K, K]). The count is named after the mask (`alive.sum()`, `(done == 0).sum()`) when
the mask reads only names given once in the function (and constants), so two reads of it are
certainly the same mask; anything else (a mask made again in a loop, a fresh `torch.rand(n) < p` at
each read) keeps the count unknown.
"""
from __future__ import annotations

import ast
from typing import Dict, Optional

from ..dims import Shape, Sym
from . import exact_values
from .tree_walk import own_nodes
from .values import SeqVal, TensorVal


def counted(interp, node: ast.Subscript, key, result, owner=None):
    """`x[mask]` (or `x[:, mask]`) whose count of kept entries torch leaves open, named `mask.sum()` when the
    mask is fixed here."""
    at, mask_node, key = _mask_item(node.slice, key)
    if not isinstance(result, TensorVal) or not isinstance(key, TensorVal) or key.dtype != "bool":
        return result
    shape = result.shape
    if shape is None or shape.variadic or not -len(shape.dims) <= at < len(shape.dims) or shape.dims[at] is not None:
        return result
    known = exact_values.selected_count(owner, key) if at == 0 else None  # a mask known entry by entry
    count = _count_name(interp, mask_node)
    if known is None and count is None:
        return result
    count = count or _sum_text(mask_node)
    dims = list(shape.dims)
    mask = key.shape  # a 1-d mask's count is a part of the dim it runs along (GL009 pairs it with that dim)
    over = mask.dims[0] if mask is not None and not mask.variadic and len(mask.dims) == 1 else None
    dims[at] = Sym(count, size=known, part_of=over)
    return result.with_(shape=Shape(tuple(dims)))


def _mask_item(key_node, key):
    """(the dim the mask's count lands on, the mask's node, its value): `x[mask]` at 0; `x[:, :, mask]` at 2
    (whole slices before it, each keeping its dim); else (0, the key, the key's value)."""
    if not isinstance(key_node, ast.Tuple) or not isinstance(key, SeqVal) or len(key.items) != len(key_node.elts):
        return 0, key_node, key
    tensors = [k for k, item in enumerate(key.items) if isinstance(item, TensorVal)]
    if len(tensors) != 1:
        return 0, key_node, None
    before, after = key_node.elts[:tensors[0]], key_node.elts[tensors[0] + 1:]
    if all(isinstance(e, ast.Slice) for e in before):
        return tensors[0], key_node.elts[tensors[0]], key.items[tensors[0]]
    if len(before) == 1 and _is_ellipsis(before[0]) and all(isinstance(e, ast.Slice) for e in after):
        return -1 - len(after), key_node.elts[tensors[0]], key.items[tensors[0]]  # `x[..., mask, :]`: from the end
    return 0, key_node, None


def _is_ellipsis(node) -> bool:
    return isinstance(node, ast.Constant) and node.value is Ellipsis


def counted_positions(interp, mask_node, mask, result):
    """`mask.nonzero()`, `torch.argwhere(mask)`, `torch.where(mask)` of a 1-d mask fixed here: as many positions
    as `x[mask]` keeps rows, `mask.sum()`, a part of the mask's dim."""
    if not isinstance(mask, TensorVal) or mask.dtype != "bool" or mask.shape is None or mask.shape.variadic \
            or len(mask.shape.dims) != 1:
        return result
    name = _count_name(interp, mask_node)
    if name is None:
        return result
    count = Sym(name, part_of=mask.shape.dims[0])
    if isinstance(result, SeqVal) and len(result.items) == 1 and isinstance(result.items[0], TensorVal):
        return SeqVal((result.items[0].with_(shape=Shape((count,))),))  # where(mask): a tuple of one vector
    if isinstance(result, TensorVal) and result.shape is not None and not result.shape.variadic \
            and len(result.shape.dims) == 2 and result.shape.dims[0] is None:
        return result.with_(shape=Shape((count,) + result.shape.dims[1:]))  # nonzero(): [count, 1]
    return result


def _count_name(interp, mask_node) -> Optional[str]:
    """`mask.sum()` / `(done == 0).sum()`: the name of a mask's count, when the mask reads only names bound once
    in the function (two reads of it are then the same mask); None otherwise."""
    names = _mask_names(mask_node)
    if not names or any(_stores(interp).get(name, 0) > 1 for name in names):
        return None
    return _sum_text(mask_node)


def _sum_text(mask_node) -> str:
    text = ast.unparse(mask_node)
    return f"{text}.sum()" if isinstance(mask_node, ast.Name) else f"({text}).sum()"


_SAME_MASK_METHODS = frozenset({"bool", "logical_not"})  # no argument, the same rows each time
_COMPARISONS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def _mask_names(key) -> Optional[set]:
    """The names a mask expression reads, when it reads nothing else: `mask`, `~done`, `done == 0`,
    `done.logical_not()`, `(lengths > 1) & ~done` (no call that could differ between reads)."""
    if isinstance(key, ast.Name):
        return {key.id}
    if isinstance(key, ast.Constant):
        return set()
    if isinstance(key, ast.UnaryOp) and isinstance(key.op, (ast.Invert, ast.Not)):
        return _mask_names(key.operand)
    if isinstance(key, ast.BinOp) and isinstance(key.op, (ast.BitAnd, ast.BitOr)):
        left, right = _mask_names(key.left), _mask_names(key.right)
        return left | right if left is not None and right is not None else None
    if isinstance(key, ast.Compare) and all(isinstance(op, _COMPARISONS) for op in key.ops):
        parts = [_mask_names(part) for part in [key.left] + key.comparators]
        return set().union(*parts) if all(p is not None for p in parts) else None
    if isinstance(key, ast.Call) and not key.args and not key.keywords and isinstance(key.func, ast.Attribute) \
            and key.func.attr in _SAME_MASK_METHODS:
        return _mask_names(key.func.value)
    return None


def _stores(interp) -> Dict[str, int]:
    """How often each name is bound in the function being run (its parameters count once); read once,
    on the first mask lookup."""
    found = getattr(interp, "_mask_stores", None)
    if found is not None:
        return found
    scope = getattr(interp, "function", None)
    if scope is None:  # the module body: a script's names are rebound freely; nothing is named
        interp._mask_stores = _Everything()
        return interp._mask_stores
    found: Dict[str, int] = {}
    args = scope.args
    for arg in args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]:
        found[arg.arg] = 1
    for node in own_nodes(scope):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            found[node.id] = found.get(node.id, 0) + 1
        elif _changed_in_place(node):  # mask[0] = False, mask.logical_and_(m): another count after it
            found[node.value.id if isinstance(node, ast.Subscript) else node.func.value.id] = 2
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            for inner in ast.walk(node):  # a name bound in a loop is a new mask each time round
                if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                    found[inner.id] = found.get(inner.id, 0) + 2
    interp._mask_stores = found
    return found


def _changed_in_place(node) -> bool:
    if isinstance(node, ast.Subscript):
        return isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.endswith("_") \
        and not node.func.attr.startswith("_") and isinstance(node.func.value, ast.Name)


class _Everything(dict):
    """Every name counts as rebound."""

    def get(self, key, default=None):
        return 2
