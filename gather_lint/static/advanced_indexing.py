"""GL017: `x[:, idx]` where idx holds one pick per row of x (advanced indexing crosses rows with picks)."""
from __future__ import annotations

import ast
import re
from typing import Optional, Tuple

from ..dims import Shape, must_equal, value
from ..rules import gl017_advanced_index_per_row as rule
from .row_numbers import row_numbers
from .value_makers import made_by
from .shape_text import parse_comment
from .tensor_ops import FLOAT_DTYPES, as_int, whole_slice
from .values import DimVal, Literal, SeqVal, TensorVal
from .text_scan import file_test

# `[:, name...]`, `[:, :, name...]`, `[..., name...]`: files spelling none of these need no parse for GL017
_ITEM = r"(?!None\b)[A-Za-z_][\w.]*(?:(?:\([^()\[\]:]*\)|\[[^\[\]]*\])[\w.]*)*\s*[\],]"  # a name/call chain, no slice
_SPELLED = re.compile(rf"\[\s*(?::\s*,\s*)+{_ITEM}|\[\s*\.\.\.\s*,\s*{_ITEM}|\[\s*\d+\s*\]\[\s*{_ITEM}")  # and `[0][name]`
_STORE_AFTER = re.compile(r"\s*(?:[-+*/]?=(?!=))")  # `x[:, i] = v`, `x[:, i] += v`: writes, not this read
_ONE_AFTER = re.compile(r"\s*=\s*(?:1|1\.0?|True)\s*(?:#|$)", re.M)


@file_test
def spelled_anywhere(text: str) -> bool:
    """`[:, name]` anywhere, read or written: true of a file wherever spelled_in is of a part."""
    return ("[:" in text or "[..." in text or "][" in text) and _SPELLED.search(text) is not None


@file_test
def spelled_in(text: str) -> bool:
    """`[:, name]` (or `[..., name]`, `[0][name]`) read where the name can be a tensor: a file (or block) without one has
    nothing for GL017. A range or enumerate counter and a `slice(...)` object are never index tensors, and
    `Callable[..., T]` is a type: none of them admits a block (model files read `x[:, :, i]` in loops
    everywhere, and the blocks they admitted were a tenth of the linting time)."""
    if not ("[:" in text or "[..." in text or "][" in text):
        return False
    for m in _SPELLED.finditer(text):
        if m.group(0).endswith("]") and _STORE_AFTER.match(text, m.end()) and not _ONE_AFTER.match(text, m.end()):
            continue  # a write, unless of a one (`out[:, labels] = 1`, a one-hot made by columns)
        if text[max(0, m.start() - 8):m.start()].endswith(_TYPE_NAMES):
            continue
        item = m.group(0)[:-1].rsplit(",", 1)[-1].rsplit("[", 1)[-1].strip()
        if _BARE_NAME.match(item) is None or not _never_a_tensor(text, m.start(), item):
            return True
    return False


_TYPE_NAMES = ("Callable", "tuple", "Tuple")
_BARE_NAME = re.compile(r"[A-Za-z_]\w*\Z")


def _never_a_tensor(text: str, at: int, name: str) -> bool:
    """Whether `name`, read at `at`, is bound in its function as a range/enumerate counter (`for i in
    range(n)`, also a comprehension's on the same line) or to `slice(...)`: an int or a slice, no tensor."""
    end = text.find("\n", at)
    region = text[_function_start(text, at):end if end != -1 else len(text)]
    if name not in region.replace(name, "", 1):
        return False  # the read is its only mention: bound elsewhere (a parameter of the caller's)
    binding = re.compile(rf"\bfor\s+\(?\s*{name}\s*(?:,[^\n]*?)?\bin\s+(?:range|enumerate)\(|^[ \t]*{name}\s*=\s*slice\(",
                         re.MULTILINE)
    return binding.search(region) is not None


def _function_start(text: str, at: int) -> int:
    """Where the line of the last `def` before `at` starts (0 when none: module code)."""
    found = text.rfind("def ", 0, at)
    while found != -1:
        line_start = text.rfind("\n", 0, found) + 1
        if text[line_start:found].strip() in ("", "async"):
            return line_start
        found = text.rfind("def ", 0, found)
    return 0


def check(interp, node: ast.Subscript, owner: TensorVal, key) -> Optional[TensorVal]:
    """Flag `x[:, idx]` when idx's leading dims are x's dims left of the indexed one and its values are
    per-row picks into the indexed dim (read, or written: `out[:, labels] = 1`), and `x[0][idx]`. With the
    batch dims alone as evidence, return the crossed read marked, for check_combined to flag if it meets a
    one-per-row tensor."""
    if isinstance(node.ctx, ast.Store):
        _check_write(interp, node, owner, key)  # x[:, idx] = v with one pick per row: every row gets every pick
        _check_kept_column(interp, node, owner, key)
        return None
    if not isinstance(node.ctx, ast.Load):
        return None
    _check_one_row(interp, node, owner, key)
    if _check_row_column(interp, node, owner, key) or _check_kept_column(interp, node, owner, key):
        return None
    if owner.crossed is not None and _first_column(key):
        _flag(interp, owner.crossed, "one value per row, as taking column 0 of the result (`[:, 0]`) says")
        return None
    found = _one_index_after_full_slices(owner, key)
    if found is None:
        return None
    axis, index, reduced = found
    if not rule.leads_with_batch(index.shape, reduced.shape, axis):
        return None
    dims = reduced.shape.dims
    segment = interp.source.segment
    indexed = index_node(node.slice)
    x_text = segment(node.value)
    if reduced is not owner and isinstance(node.slice, ast.Tuple):  # `probs[:, :, k, i, j]`, then the index
        x_text += "[" + ", ".join(":" if e is indexed else segment(e) for e in node.slice.elts) + "]"
    report = (node, segment(node), x_text, reduced.shape, axis, segment(indexed), index.shape)
    if index.permutation is not None:
        return None  # a permutation (randperm, argsort) reorders the dim: no pick per row
    origin = _per_row_origin(index, dims[axis]) or _declared_per_row(interp, node, dims, axis)
    if origin is not None:
        _flag(interp, report, origin)
        return None
    return TensorVal(rule.crossed_shape(reduced.shape, axis, index.shape), owner.dtype, crossed=report)


def _per_row_origin(index: TensorVal, indexed) -> Optional[str]:
    """How index's values are known to be picks into the indexed dim, or None; a permutation (randperm,
    argsort) reorders the dim instead, whatever its range."""
    return rule.per_row_origin(index.domain, indexed) if index.permutation is None else None


def _check_write(interp, node: ast.Subscript, owner: TensorVal, key) -> None:
    """`out[:, idx] = 1` with idx [N] of picks into dim 1 of out [N, C]: a column list shared by every row."""
    found = _one_index_after_full_slices(owner, key)
    if found is None:
        return
    axis, index, reduced = found
    if axis != 1 or len(index.shape.dims) != 1 or not rule.leads_with_batch(index.shape, reduced.shape, axis):
        return
    origin = _per_row_origin(index, reduced.shape.dims[axis])
    if origin is None:
        return
    segment = interp.source.segment
    interp.flag(node, rule.check_write(segment(node), segment(node.value), reduced.shape, segment(index_node(node.slice)),
                                       index.shape, origin), None)


def _check_one_row(interp, node: ast.Subscript, owner: TensorVal, key) -> None:
    """`x[0][idx]` / `x[0, idx]` with idx [N] of picks into dim 1 of x [N, C, ...]: each pick reads row 0."""
    items = list(key.items) if isinstance(key, SeqVal) and not key.names else None
    if items is not None and len(items) == 2 and isinstance(items[0], DimVal) and isinstance(items[1], TensorVal):
        row, index, x, x_node = as_int(items[0]), items[1], owner, node.value  # x[0, idx]
        index_text = interp.source.segment(node.slice.elts[1]) if isinstance(node.slice, ast.Tuple) else None
    elif isinstance(key, TensorVal) and isinstance(node.value, ast.Subscript) and isinstance(
            node.value.value, (ast.Name, ast.Attribute)) and isinstance(node.value.slice, ast.Constant):
        row, index, x_node = node.value.slice.value, key, node.value.value  # x[0][idx]: x read again, a name
        x, index_text = interp.expr(x_node), interp.source.segment(node.slice)
    else:
        return
    if index_text is None or not isinstance(row, int) or isinstance(row, bool) or not isinstance(x, TensorVal) or x.shape is None \
            or x.shape.variadic or len(x.shape.dims) < 2 or index.shape is None or index.shape.variadic \
            or len(index.shape.dims) != 1 or index.dtype in ("bool", "uint8") or index.dtype in FLOAT_DTYPES:
        return
    if not rule.leads_with_batch(index.shape, x.shape, 1):
        return
    origin = _per_row_origin(index, x.shape.dims[1])
    if origin is None:
        return
    segment = interp.source.segment
    interp.flag(node, rule.check_one_row(segment(node), segment(x_node), x.shape, row, index_text, index.shape, origin),
                None)


def _check_row_column(interp, node: ast.Subscript, owner: TensorVal, key) -> bool:
    """`x[arange(B)[:, None], idx]` with idx [B]: the column of row numbers broadcasts against idx [B] to
    [B, B], as `:` does, so every row is read at every row's pick, as with `x[:, idx]` (idx [B, 1], or
    arange(B) without the column, pairs them). Reported on the same evidence as `x[:, idx]`."""
    found = _rows_and_picks(node, owner, key, 2, 1)
    if found is None:
        return False
    rows, index, shape = found
    if value(rows.shape.dims[1]) != 1 or not must_equal(rows.shape.dims[0], shape.dims[0]) \
            or not rule.leads_with_batch(index.shape, shape, 1) or not row_numbers(interp, node.slice.elts[0], rows):
        return False
    origin = _per_row_origin(index, shape.dims[1]) or _declared_per_row(interp, node, shape.dims, 1, column=True)
    if origin is None:
        return False
    segment = interp.source.segment
    _flag(interp, (node, segment(node), segment(node.value), shape, 1, segment(node.slice.elts[1]), index.shape), origin)
    return True


def _check_kept_column(interp, node: ast.Subscript, owner: TensorVal, key) -> bool:
    """`x[arange(B), idx]` with idx [B, 1] (one pick per row kept as a column: `argmax(1, keepdim=True)`, labels
    of one task): the row numbers [B] broadcast against [B, 1] to [B, B], so every row is read (or written) at
    every row's pick, silently. The row numbers are the evidence that one entry per row was meant."""
    found = _rows_and_picks(node, owner, key, 1, 2)
    if found is None:
        return False
    rows, index, shape = found
    if value(index.shape.dims[1]) != 1 or value(shape.dims[0]) == 1 or not _same_size(rows.shape.dims[0], shape.dims[0]) \
            or not _same_size(index.shape.dims[0], rows.shape.dims[0]) \
            or made_by(interp, node.slice.elts[0], ("arange",)) is None:
        return False
    segment = interp.source.segment
    interp.flag(node, rule.check_kept_column(segment(node), segment(node.value), shape, segment(node.slice.elts[0]),
                                             segment(node.slice.elts[1]), index.shape,
                                             isinstance(node.ctx, ast.Store)), None)
    return True


def _rows_and_picks(node: ast.Subscript, owner: TensorVal, key, rows_rank: int, picks_rank: int):
    """(rows, picks, x's shape) for `x[rows, picks]` with two integer tensors of those ranks on an x of known rank
    of at least 2; None otherwise."""
    items = list(key.items) if isinstance(key, SeqVal) and not key.names else None
    if items is None or len(items) != 2 or not isinstance(node.slice, ast.Tuple) or len(node.slice.elts) != 2:
        return None
    rows, index = items
    shape = owner.shape
    if not isinstance(rows, TensorVal) or not isinstance(index, TensorVal) or shape is None or shape.variadic \
            or len(shape.dims) < 2 or rows.shape is None or rows.shape.variadic or len(rows.shape.dims) != rows_rank \
            or index.shape is None or index.shape.variadic or len(index.shape.dims) != picks_rank \
            or index.dtype in ("bool", "uint8") or index.dtype in FLOAT_DTYPES:
        return None
    return rows, index, shape


def _same_size(a, b) -> bool:
    """Equal as names or as known numbers (a caller's 12 beside the callee's `n`)."""
    return must_equal(a, b) or value(a) is not None and value(a) == value(b)


def check_combined(interp, left_node, left, right_node, right, op: str) -> None:
    """`x[:, idx] * w` with w of the one-per-row shape ([B] for x [B, C]): the author took x[:, idx] for
    one value per row, which it is not."""
    for mine, other, other_node in ((left, right, right_node), (right, left, left_node)):
        if not isinstance(mine, TensorVal) or mine.crossed is None or not isinstance(other, TensorVal):
            continue
        if other.crossed is not None or other.shape is None or other.shape.variadic:
            continue
        node, _, _, x, axis, _, _ = mine.crossed
        per_row = tuple(x.dims[:axis]) + tuple(x.dims[axis + 1:])
        if len(other.shape.dims) == len(per_row) and all(must_equal(a, b) for a, b in zip(other.shape.dims, per_row)):
            source = interp.source.segment(other_node)
            _flag(interp, mine.crossed, f"one value per row, as combining it ({op}) with `{source}` {other.shape} says")


def _flag(interp, report, origin: str) -> None:
    node, text, x_text, x, axis, index_text, index = report
    interp.flag(node, rule.check_subscript(text, x_text, x, axis, index_text, index, origin), None)


def _one_index_after_full_slices(owner: TensorVal, key) -> Optional[Tuple[int, TensorVal, TensorVal]]:
    """(axis, index, owner) for `[:, ..., :, idx, :, ...]`: one integer tensor, every other item a full slice
    or one `...`; the index's axis must have at least one dim left of it. Ints right after the index
    (`probs[:, vals, k, i, j]`) join it as adjacent advanced indices that only drop their dims, so the
    owner returned is x with those dims picked first (`probs[:, :, k, i, j]`)."""
    shape = owner.shape
    if shape is None or shape.variadic:
        return None
    items = list(key.items) if isinstance(key, SeqVal) and not key.names else [key]
    tensors = [k for k, item in enumerate(items) if isinstance(item, TensorVal)]
    if len(tensors) != 1:
        return None
    position = tensors[0]
    picked = _ints_after(items, position)
    if picked:
        if any(isinstance(item, Literal) and item.value is Ellipsis for item in items) or len(items) > len(shape.dims):
            return None
        shape = Shape(shape.dims[:position + 1] + shape.dims[position + 1 + picked:])
        owner = owner.with_(shape=shape)
        items = items[:position + 1] + items[position + 1 + picked:]
    ellipses = [k for k, item in enumerate(items) if isinstance(item, Literal) and item.value is Ellipsis]
    full = [k for k, item in enumerate(items) if whole_slice(item)]
    if len(ellipses) > 1 or len(full) + len(ellipses) + 1 != len(items) or len(items) > len(shape.dims):
        return None
    if ellipses and ellipses[0] < position:
        axis = len(shape.dims) - (len(items) - position)
    else:
        axis = position
    index = items[position]
    if axis < 1 or index.shape is None or index.shape.variadic or not index.shape.dims:
        return None
    if index.dtype is not None and (index.dtype in ("bool", "uint8") or index.dtype in FLOAT_DTYPES):
        return None  # a mask selects, a float index raises: neither is this mistake
    return axis, index, owner


def _ints_after(items, position: int) -> int:
    """How many plain ints follow the tensor index directly (adjacent advanced indices)."""
    count = 0
    for item in items[position + 1:]:
        if not isinstance(item, DimVal):
            break
        count += 1
    return count


def _first_column(key) -> bool:
    """`[:, 0]`: what a reader writes to take the one column of an [N, 1] result."""
    items = key.items if isinstance(key, SeqVal) and not key.names else None
    return items is not None and len(items) == 2 and whole_slice(items[0]) \
        and isinstance(items[1], DimVal) and as_int(items[1]) == 0


_ASSIGNED = re.compile(r"^\s*[A-Za-z_][\w.]*\s*(?::[^=]*)?=\s*$")


def _declared_per_row(interp, node: ast.Subscript, dims, axis: int, column: bool = False) -> Optional[str]:
    """`picked = x[:, idx]  # [B]`: the author states the shape of one pick per row, which x[:, idx]
    with a non-scalar idx never has (its rank is at least x's). With `column`, the picks kept as a column
    (`x[rows[:, None], idx]  # [B, 1, C]`) state it too."""
    if node.lineno != node.end_lineno:
        return None
    comment = interp.source.comment(node.lineno)
    if comment is None or comment.standalone:
        return None
    raw = interp.source.lines[node.lineno - 1].encode("utf-8")
    before = raw[:node.col_offset].decode("utf-8", "replace")
    after = raw[node.end_col_offset:].decode("utf-8", "replace")
    if _ASSIGNED.match(before) is None or not after.lstrip().startswith("#"):
        return None
    target = before.split("=")[0].split(":")[0].strip().split(".")[-1]
    declared = parse_comment(comment.text, target)
    per_row = tuple(dims[:axis]) + tuple(dims[axis + 1:])
    kept = tuple(dims[:axis]) + (1,) + tuple(dims[axis + 1:])
    if declared is None or declared.variadic or not any(
            len(declared.dims) == len(wanted) and all(must_equal(a, b) for a, b in zip(declared.dims, wanted))
            for wanted in ((per_row, kept) if column else (per_row,))):
        return None
    return f"one value per row, as the comment's {declared} for the result says"


def index_node(slice_node):
    """The tensor of a subscript's key: the first element that is not a slice or `...`."""
    if isinstance(slice_node, ast.Tuple):
        for element in slice_node.elts:
            if not isinstance(element, ast.Slice) and not (isinstance(element, ast.Constant) and element.value is Ellipsis):
                return element
    return slice_node
