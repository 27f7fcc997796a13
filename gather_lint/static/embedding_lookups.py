"""Embedding lookups (`emb(ids)`, `F.embedding(ids, w)`) checked for what the ids are, not their shape.

An embedding takes int64 or int32 ids only: a comparison mask (`segment = tokens >= offset`) or a
float tensor raises 'Expected tensor for argument #1 'indices' to have one of the following scalar
types: Long, Int' when the lookup runs (GL008).

Positions `torch.arange(L)` (through unsqueeze/expand/view) looked up in a position table of fewer
than L rows: a sequence longer than the table the model was built for raises 'index out of range
in self' (GL011). The arange is read where the ids are written, not carried as a value range: a
slice or a mask of it holds fewer positions. Other values made for more rows than the table has
are index_values.check_lookup's.
"""
from __future__ import annotations

import ast
import bisect
from typing import Optional

from ..contract import ERROR, Violation
from ..dims import dim_text, must_exceed, value
from . import script_drivers
from . import declared_index_dtypes
from .constant_ids import literal_ints
from .values import DimVal, TensorVal
from .text_scan import file_test
from .tree_walk import full_slice

_ACCEPTED = ("int64", "int32")


def check(interp, node, ids_node, ids, rows, what: str) -> None:
    """Every check of this module at one lookup of `rows` rows."""
    check_dtype(interp, node, ids_node, ids, what)
    if rows is not None:
        check_positions(interp, node, ids_node, rows, what)
        check_literal(interp, node, ids_node, rows, what)


def check_dtype(interp, node, ids_node, ids, what: str) -> None:
    """GL008 for a lookup whose ids have a known dtype it rejects."""
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


def dtype_message(text: str, dtype: str, what: str) -> Violation:
    kind = {"bool": "a bool mask (a comparison's result)", "uint8": "a uint8 mask"}.get(dtype, f"dtype {dtype}")
    shown = {"bool": "CPUBoolType", "float32": "torch.FloatTensor", "float64": "torch.DoubleTensor",
             "float16": "torch.HalfTensor", "bfloat16": "CPUBFloat16Type", "uint8": "torch.ByteTensor",
             "int16": "torch.ShortTensor", "int8": "torch.CharTensor"}.get(dtype, dtype)
    return Violation(
        "GL008", ERROR,
        f"`{text}` is {kind} but {what} takes int64 or int32 ids; torch raises \"Expected tensor for argument "
        f"#1 'indices' to have one of the following scalar types: Long, Int; but got {shown} instead\" when it "
        f"runs; convert the ids with `.long()`",
        fix_suffix=".long()",
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
_KEEPS_VALUES = {"unsqueeze", "expand", "expand_as", "view", "reshape", "long", "to", "repeat", "contiguous",
                 "type_as", "clone", "detach", "cuda", "flatten", "view_as"}


def check_positions(interp, node, ids_node, rows, what: str) -> None:
    """GL011 for `torch.arange(L)` (or `arange(start, end)`) positions past a table of `rows` rows."""
    made = _arange(interp, ids_node)
    if made is None:
        return
    args = [interp.expr(a) for a in made.args]
    if not all(isinstance(a, DimVal) for a in args) or len(args) not in (1, 2) or made.keywords and \
            any(k.arg not in ("device", "dtype") for k in made.keywords):
        return
    end = args[-1].dim
    if end is None or not must_exceed(end, rows):
        return
    if len(args) == 2 and (value(args[0].dim) is None or value(end) is None or value(end) <= value(args[0].dim)):
        return
    last = value(end) - 1 if value(end) is not None else f"{dim_text(end)} - 1"
    text = interp.source.segment(made)
    interp.flag(node, Violation(
        "GL011", ERROR,
        f"`{interp.source.segment(ids_node)}` holds the positions of `{text}`, up to {last}, but {what} has "
        f"{_sized(rows)} rows (positions 0 to {_last(rows)}); every position from {_first_bad(rows)} on raises "
        f"'index out of range in self' (a device-side assert on CUDA); truncate the sequence to the table's "
        f"length or build the table with more positions",
    ), None)


def _arange(interp, node):
    return _made_by(interp, node, ("arange",))


def _made_by(interp, node, makers, line: Optional[int] = None, depth: int = 0):
    """The `torch.<maker>(...)` call the ids are, through value-keeping methods and local names."""
    line = node.lineno if line is None else line
    while True:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _KEEPS_VALUES:
            node = node.func.value
        elif isinstance(node, ast.Subscript) and _adds_axes_only(node.slice):
            node = node.value
        else:
            break
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in makers \
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "torch":
        return node
    scope = interp.function or _driver_at(interp, line)
    if isinstance(node, ast.Name) and depth < 3 and scope is not None:
        bound = _binding_before(scope, node.id, line)
        return _made_by(interp, bound.value, makers, bound.lineno, depth + 1) if bound is not None else None
    return None


def made_by(interp, node, makers):
    """The `torch.<maker>(...)` call `node` is, through value-keeping methods and local names; else None."""
    return _made_by(interp, node, makers)


def literal_max(interp, ids_node):
    """(largest id, line) of ids written out as a literal (`torch.tensor([[5, 2, 32000]])`), through
    value-keeping methods and local names; None when they are not."""
    made = _made_by(interp, ids_node, ("tensor", "LongTensor", "as_tensor"))
    if made is None or not made.args or any(k.arg != "dtype" or not _integer_dtype(k.value) for k in made.keywords):
        return None  # a float literal is GL008's (torch rejects its dtype first)
    numbers = literal_ints(made.args[0])
    return (max(numbers), made.lineno) if numbers else None


def check_literal(interp, node, ids_node, rows, what: str) -> None:
    """GL011 for ids written out in the code with one past the table."""
    size = value(rows)
    written = literal_max(interp, ids_node)
    if size is None or written is None or written[0] < size:
        return
    interp.flag(node, Violation(
        "GL011", ERROR,
        f"`{interp.source.segment(ids_node)}` holds the id {written[0]} (written at line {written[1]}), but "
        f"{what} has {_sized(rows)} rows (ids 0 to {size - 1}); torch raises 'index out of range in self' "
        f"(a device-side assert on CUDA); use an id the table has, or enlarge the table",
    ), None)


def _integer_dtype(node) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in ("long", "int64", "int", "int32")


def _driver_at(interp, line: int):
    """The script's `if __name__ == "__main__":` block holding `line`, for lookups in the driver itself."""
    tree = getattr(interp.module, "tree", None)
    if tree is None:
        return None
    drivers = getattr(tree, "_gather_lint_drivers", None)
    if drivers is None:  # the module body looked over once, not at every lookup of a long script
        drivers = tree._gather_lint_drivers = [node for node in getattr(tree, "body", ())
                                               if script_drivers.is_guard(node)]
    return next((node for node in drivers if node.lineno <= line <= (node.end_lineno or node.lineno)), None)


def _adds_axes_only(key) -> bool:
    """`[None]`, `[None, :]`, `[:, None]`: every value stays."""
    items = key.elts if isinstance(key, ast.Tuple) else [key]
    full = [full_slice(k) for k in items]
    nones = [isinstance(k, ast.Constant) and k.value is None for k in items]
    return any(nones) and all(f or n for f, n in zip(full, nones))


def _binding_before(function, name: str, line: int):
    """The last plain assignment to `name` before `line`, when every binding of the name in the function
    is a plain assignment in its top-level body (so the last one before the line is the one that holds)."""
    lines, stmts = _top_bindings(function).get(name, ((), ()))
    at = bisect.bisect_left(lines, line)
    return stmts[at - 1] if at else None


def _top_bindings(function):
    """name -> (lines, ascending; the assignment at each) for the names bound only by plain `name = ...`
    statements of the top-level body (of two on one line, the first); one walk per function, kept on its
    node, where a look back per lookup walked the whole function each time."""
    found = getattr(function, "_gather_lint_top_bindings", None)
    if found is not None:
        return found
    top = {id(stmt) for stmt in function.body}
    plain, other = {}, set()
    for node in ast.walk(function):
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr, ast.comprehension))
            else [i.optional_vars for i in node.items if i.optional_vars is not None] if isinstance(node, ast.With) else [])
        if not targets:
            continue
        if isinstance(node, ast.Assign) and id(node) in top and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            plain.setdefault(node.targets[0].id, {}).setdefault(node.lineno, node)
        else:  # any name written in such a target (`x` of `x[i] = v` too) has no one binding that holds
            other.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    found = {name: (sorted(at), [at[n] for n in sorted(at)]) for name, at in plain.items() if name not in other}
    function._gather_lint_top_bindings = found
    return found


def _sized(d) -> str:
    return dim_text(d) if isinstance(d, int) or value(d) is None else f"{dim_text(d)} = {value(d)}"


def _last(d) -> str:
    return str(value(d) - 1) if value(d) is not None else f"{dim_text(d)} - 1"


def _first_bad(d) -> str:
    return str(value(d)) if value(d) is not None else dim_text(d)
