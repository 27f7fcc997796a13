"""GL016 at an indexed assignment: `x[idx] = v` with an index tensor is index_put_, and index_put_ converts
no tensor value: a float64 `v` written into a float32 `x` raises. A number, a slice or a 0-d index (basic
indexing) converts, so the check needs an integer index tensor of at least one dim in the key."""
from __future__ import annotations

import ast

from ..rules import gl016_src_dtype_mismatch as gl016
from .dtype_certainty import certain
from .values import SeqVal, TensorVal

_INDEX_DTYPES = ("int64", "int32")


def check(interp, node: ast.Assign, target: ast.Subscript, written) -> None:
    """`x[key] = v`."""
    _check(interp, node, interp.expr(target.value), interp.expr(target.slice), written,
           interp.source.segment(target), node.value)


def check_call(interp, node: ast.Call, owner, args) -> None:
    """`x.index_put_((k1, k2), v)`: the same write, spelled as a call."""
    if len(args) >= 2 and len(node.args) >= 2 and isinstance(node.func, ast.Attribute):
        target = f"{interp.source.segment(node.func.value)}[{interp.source.segment(node.args[0])}]"
        _check(interp, node, owner, args[0], args[1], target, node.args[1])


def _check(interp, node, owner, key, written, target: str, written_node) -> None:
    if not isinstance(written, TensorVal) or written.dtype is None:
        return
    if not isinstance(owner, TensorVal) or owner.dtype in (None, written.dtype):
        return
    if not any(_index_tensor(k) for k in (key.items if isinstance(key, SeqVal) else (key,))):
        return
    exact = any(t.dtype == "float32" and certain(t) for t in (owner, written))  # the float32 side made so for sure
    if gl016.mismatched(owner.dtype, written.dtype, exact):
        interp.flag(node, gl016.check_index_put(target, interp.source.segment(written_node), owner.dtype,
                                                written.dtype), None)


def _index_tensor(k) -> bool:
    """An integer tensor of at least one dim: advanced indexing, which index_put_ carries out."""
    return isinstance(k, TensorVal) and k.dtype in _INDEX_DTYPES and k.shape is not None \
        and (k.shape.variadic or bool(k.shape.dims))
