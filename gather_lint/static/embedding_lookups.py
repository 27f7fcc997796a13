"""Embedding lookups (`emb(ids)`, `F.embedding(ids, w)`) checked for what the ids are, not their shape.

An embedding takes int64 or int32 ids only: a comparison mask (`segment = tokens >= offset`) or a
float tensor raises 'Expected tensor for argument #1 'indices' to have one of the following scalar
types: Long, Int' when the lookup runs (GL008).

Ids known one by one (written out) with one past the table raise 'index out of range in self' (GL011).
Positions `torch.arange(L)` past a table of fewer rows are the value range's (arange_positions.py), read
by index_values.check_lookup as other values made for more rows than the table has.
"""
from __future__ import annotations


from ..contract import ERROR, Violation
from ..dims import dim_text, value
from . import exact_values, script_drivers
from . import declared_index_dtypes
from .values import TensorVal
from .text_scan import file_test

_ACCEPTED = ("int64", "int32")


def check(interp, node, ids_node, ids, rows, what: str) -> None:
    """Every check of this module at one lookup of `rows` rows."""
    check_dtype(interp, node, ids_node, ids, what)
    if rows is not None:
        check_literal(interp, node, ids_node, ids, rows, what)


def check_dtype(interp, node, ids_node, ids, what: str) -> None:
    """GL008 for a lookup whose ids have a known dtype it rejects."""
    if isinstance(ids, TensorVal) and ids.dtype is None and ids.domain is not None and ids.domain.made_float:
        # a float of a dtype not known (a true division of a tensor whose dtype is not known)
        interp.flag(node, dtype_message(interp.source.segment(ids_node), "floating", what, ids.domain.made_float), None)
        return
    if not isinstance(ids, TensorVal) or ids.dtype is None or ids.dtype in _ACCEPTED:
        return
    text = interp.source.segment(ids_node)
    violation = dtype_message(text, ids.dtype, what)
    if ids.domain is None or ids.domain.made_float is None:  # a float only an annotation says is a contradiction
        declared = declared_index_dtypes.contradicted(interp, ids_node, f"{what} takes `{text}` as its ids", ids.dtype)
        if declared is None:
            return  # this parameter's contradiction is reported at its first use
        violation = declared or violation
    interp.flag(node, violation, None)


def dtype_message(text: str, dtype: str, what: str, made: str = "") -> Violation:
    """`made`: what made the ids floats when their exact dtype is not known (dtype "floating")."""
    kind = {"bool": "a bool mask (a comparison's result)", "uint8": "a uint8 mask",
            "floating": f"a float (made by {made})"}.get(dtype, f"dtype {dtype}")
    shown = {"bool": "CPUBoolType", "float32": "torch.FloatTensor", "float64": "torch.DoubleTensor",
             "float16": "torch.HalfTensor", "bfloat16": "CPUBFloat16Type", "uint8": "torch.ByteTensor",
             "int16": "torch.ShortTensor", "int8": "torch.CharTensor"}.get(dtype, dtype)
    error = "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int"
    return Violation(
        "GL008", ERROR,
        f"`{text}` is {kind} but {what} takes int64 or int32 ids; torch raises \"{error}"
        + (f"; but got {shown} instead\"" if dtype != "floating" else "\"")
        + " when it runs; " + ("make them with `//` instead of `/`, or convert them with `.long()`" if dtype == "floating"
                               else "convert the ids with `.long()`"),
        **({"fix_suffix": ".long()"} if dtype != "floating" else {}),
    )


@file_test
def scripted(text: str) -> bool:
    """A script (it has a `__main__` driver) that looks ids up in a table, or scores class ids with a loss
    (class_targets.py): its driver builds the table with known sizes and makes the ids, so the lookups can
    be checked. A library file's tables are sized from configs nothing in it fills, so it is not parsed for
    lookups alone (substring tests only: this runs on every file)."""
    return script_drivers.is_script(text) and spelled_in(text)  # is_script first: most files ask it anyway (memoised)


_LOOKUPS = ("mbedding", "cross_entropy", "CrossEntropyLoss", "nll_loss", "NLLLoss", "one_hot")  # tables and class ids


def spelled_in(text: str) -> bool:
    return any(word in text for word in _LOOKUPS)


# methods that keep every value of the positions (their order and repeats aside)


def check_literal(interp, node, ids_node, ids, rows, what: str) -> None:
    """GL011 for ids known one by one (written out, or made by arange and what keeps its values) with one
    past the table."""
    size, known = value(rows), exact_values.largest_described(ids)
    if size is None or known is None or known[0] < size:
        return
    interp.flag(node, Violation(
        "GL011", ERROR,
        f"`{interp.source.segment(ids_node)}` holds {known[1]}, but "
        f"{what} has {_sized(rows)} rows (ids 0 to {size - 1}); torch raises 'index out of range in self' "
        f"(a device-side assert on CUDA); use an id the table has, or enlarge the table",
    ), None)


def _sized(d) -> str:
    return dim_text(d) if isinstance(d, int) or value(d) is None else f"{dim_text(d)} = {value(d)}"

