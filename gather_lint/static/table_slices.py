"""GL011 at a slice of a module's table past its length: `self.pe[:, :x.size(1)]` on a 16-row table
with a 32-step input.

A positional table (a `pe` buffer, a learned `nn.Parameter` of positions, a cached mask) is read with a
front slice as long as the input; a slice stops at the dim's end without a word, so past the table's
length it returns fewer rows than the input has, and the addition or concatenation after it raises (or
broadcasts a 1-row table silently). Reported when the sliced tensor is an attribute of the object
(`self.pe`), the slice's end is a size read off another tensor (`x.size(1)`, `x.shape[1]`, a name
unpacked from a shape) and both numbers are known with the end past the table's dim. A truncation
(`tokens[:, :max_len]`) slices the data by a limit, the reverse, and is not such a slice.
"""
from __future__ import annotations

import ast
import re

from ..dims import value
from ..rules import gl011_index_out_of_range as rule
from . import script_drivers
from .normalised_axis import _bindings
from .tensor_ops import SliceVal, as_int
from .values import DimVal, SeqVal, TensorVal
from .text_scan import file_test

_SIZE_CALLS = ("size", "dim")


def check(interp, node: ast.Subscript, owner: TensorVal, key) -> None:
    if not isinstance(node.ctx, ast.Load) or not isinstance(node.value, ast.Attribute) \
            or not isinstance(node.value.value, ast.Name) or node.value.value.id != "self":
        return
    shape = owner.shape
    if shape is None or shape.variadic:
        return
    items = list(key.items) if isinstance(key, SeqVal) and not key.names else [key]
    elements = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if len(items) != len(elements) or len(items) > len(shape.dims):
        return
    for axis, (item, element) in enumerate(zip(items, elements)):
        if not isinstance(item, SliceVal) or not isinstance(element, ast.Slice) or item.step is not None:
            continue
        if item.lower is not None and as_int(item.lower) != 0:
            continue
        end, rows = as_int(item.upper) if isinstance(item.upper, DimVal) else None, value(shape.dims[axis])
        if end is None or rows is None or end <= rows or not _size_read(element.upper, interp.function, node.lineno):
            continue
        segment = interp.source.segment
        interp.flag(node, rule.table_slice_message(segment(node), segment(node.value), shape, axis,
                                                   segment(element.upper), end, rows), None)
        return


def _size_read(node, function, line: int, depth: int = 3) -> bool:
    """x.size(1), x.shape[1], len(x), or a name assigned one (or unpacked from x.shape / x.size())."""
    if node is None or depth == 0:
        return False
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _SIZE_CALLS:
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
        return True
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
        return True
    if isinstance(node, ast.Name) and function is not None:
        before = [b for b in _bindings(function).get(node.id, ()) if getattr(b, "lineno", line) < line]
        if len(before) != 1 or not isinstance(before[0], ast.Assign) or len(before[0].targets) != 1:
            return False
        made, target = before[0].value, before[0].targets[0]
        if isinstance(target, ast.Tuple):  # b, t, _ = x.shape / x.size()
            return isinstance(made, ast.Attribute) and made.attr == "shape" or \
                isinstance(made, ast.Call) and isinstance(made.func, ast.Attribute) and made.func.attr == "size"
        return _size_read(made, function, line, depth - 1)
    return False


_FRONT_SLICE = re.compile(r"self\.\w+\[(?:\s*:\s*,)*\s*:\s*[A-Za-z_]")  # self.pe[:, :x.size(1)], self.pos[:t]


@file_test
def scripted(text: str) -> bool:
    """A script (its driver gives the sizes) slicing an attribute to a length: its blocks are parsed."""
    return script_drivers.is_script(text) and spelled_in(text)  # is_script first: most files ask it anyway (memoised)


def spelled_in(chunk: str) -> bool:
    return "self." in chunk and _FRONT_SLICE.search(chunk) is not None
