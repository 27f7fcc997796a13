"""Embedding lookups (`emb(ids)`, `F.embedding(ids, w)`) checked for what the ids are, not their shape.

An embedding takes int64 or int32 ids only: a comparison mask (`segment = tokens >= offset`) or a
float tensor raises 'Expected tensor for argument #1 'indices' to have one of the following scalar
types: Long, Int' when the lookup runs. Values made for more rows than the table has are
index_values.check_lookup's (GL011).
"""
from __future__ import annotations

from ..contract import ERROR, Violation
from .values import TensorVal

_ACCEPTED = ("int64", "int32")


def check_dtype(interp, node, ids_node, ids, what: str) -> None:
    """GL008 for a lookup whose ids have a known dtype it rejects."""
    if not isinstance(ids, TensorVal) or ids.dtype is None or ids.dtype in _ACCEPTED:
        return
    interp.flag(node, dtype_message(interp.source.segment(ids_node), ids.dtype, what), None)


def dtype_message(text: str, dtype: str, what: str) -> Violation:
    kind = {"bool": "a bool mask (a comparison's result)", "uint8": "a uint8 mask"}.get(dtype, f"dtype {dtype}")
    shown = {"bool": "CPUBoolType", "float32": "torch.FloatTensor", "float64": "torch.DoubleTensor",
             "float16": "torch.HalfTensor", "bfloat16": "torch.BFloat16Tensor", "uint8": "torch.ByteTensor",
             "int16": "torch.ShortTensor", "int8": "torch.CharTensor"}.get(dtype, dtype)
    return Violation(
        "GL008", ERROR,
        f"`{text}` is {kind} but {what} takes int64 or int32 ids; torch raises \"Expected tensor for argument "
        f"#1 'indices' to have one of the following scalar types: Long, Int; but got {shown} instead\" when it "
        f"runs; convert the ids with `.long()`",
        fix_suffix=".long()",
    )


def scripted(text: str) -> bool:
    """A script (it has a `__main__` driver) that looks ids up in a table: the driver builds the table with
    known sizes and makes the ids, so the lookups can be checked. A library file's tables are sized from
    configs nothing in it fills, so it is not parsed for lookups alone (substring tests only)."""
    return "__main__" in text and spelled_in(text)


def spelled_in(text: str) -> bool:
    return "mbedding" in text
