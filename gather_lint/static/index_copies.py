"""GL031: writes that go through the copy an advanced index makes.

`x[key]` with a tensor key (a mask, positions) or a list of ints is a new tensor; only a write whose last
subscript is that key (`x[key] = v`, `x[key] += v`) reaches x. A chained write, `x[key][k] = v`, or an
in-place method whose result is dropped, `x[key].add_(v)`, changes the copy. Basic keys (ints, slices,
None, a 0-d int tensor) give views, through which writes do reach x.
"""
from __future__ import annotations

import ast
import re
from typing import Optional

from ..rules import gl031_write_into_index_copy as rule
from .python_types import ListVal
from .values import DimVal, TensorVal

_MASKS = ("bool", "uint8")
# `x[a][b] = v`, `x[a][b] *= v`, and `x[a].zero_()` as a statement: the spellings worth parsing a block for.
# The method form is looked for only around a `]._(`-like spot (rare), then at the start of its line.
_CHAINED_WRITE = re.compile(r"\]\s*\[[^\]\n]*\]\s*(?:[-+*/%&|^]|//|\*\*)?=(?!=)")
_IN_PLACE_AFTER_KEY = re.compile(r"\]\.[a-z]\w*_\(")
_STATEMENT_ON_READ = re.compile(r"[ \t]*[\w.]+(?:\[[^\]\n]*\]+)+\.[a-z]\w*_\(")


def spelled_in(text: str) -> bool:
    if _CHAINED_WRITE.search(text) is not None:
        return True
    for spot in _IN_PLACE_AFTER_KEY.finditer(text):
        start = text.rfind("\n", 0, spot.start()) + 1
        if _STATEMENT_ON_READ.match(text, start) is not None:
            return True
    return False


_INTS = ("int64", "int32", "int16", "int8")


def check_write(interp, node, target) -> None:
    """`x[key][k] = v` / `x[key][k] += v`: the target's inner subscript copies."""
    if not isinstance(target, ast.Subscript) or not isinstance(target.value, ast.Subscript):
        return
    read = target.value
    found = _copying_read(interp, read)
    if found is None:
        return
    segment = interp.source.segment
    write = f"{segment(target)} {'=' if isinstance(node, ast.Assign) else _augmented(node)} ..."
    interp.flag(node, rule.write_into_copy(write, segment(read), segment(read.value), found), None)


def check_method(interp, node: ast.Expr) -> None:
    """`x[key].add_(v)` as a statement: an in-place method on the copy, whose result nothing keeps."""
    call = node.value
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
        return
    method = call.func.attr
    if not method.endswith("_") or method.startswith("_") or not isinstance(call.func.value, ast.Subscript):
        return
    read = call.func.value
    found = _copying_read(interp, read)
    if found is None:
        return
    segment = interp.source.segment
    interp.flag(node, rule.method_on_copy(segment(call), segment(read), segment(read.value), found, method), None)


def _augmented(node) -> str:
    symbols = {ast.Add: "+=", ast.Sub: "-=", ast.Mult: "*=", ast.Div: "/=", ast.FloorDiv: "//=", ast.Mod: "%=",
               ast.Pow: "**=", ast.BitAnd: "&=", ast.BitOr: "|=", ast.BitXor: "^="}
    return symbols.get(type(getattr(node, "op", None)), "=")


def _copying_read(interp, read: ast.Subscript) -> Optional[str]:
    """What kind of key makes `read` (`x[key]`) a copy of a tensor x, or None when it may be a view."""
    owner = interp._peek(read.value)
    if not isinstance(owner, TensorVal):
        return None
    keys = read.slice.elts if isinstance(read.slice, ast.Tuple) else [read.slice]
    for key in keys:
        kind = _copying_key(interp._peek(key)) if not isinstance(key, ast.Slice) else None
        if kind is not None:
            return kind
    return None


def _copying_key(key) -> Optional[str]:
    if isinstance(key, TensorVal):
        if key.dtype in _MASKS:
            return "a bool mask" if key.dtype == "bool" else "a uint8 mask"
        s = key.shape
        if key.dtype in _INTS and s is not None and (s.variadic or len(s.dims) >= 1):
            return "a tensor of positions"
        return None
    if isinstance(key, ListVal) and key.items and all(isinstance(i, DimVal) for i in key.items):
        return "a list of positions"
    return None
