"""Index values against the size they index, at `table[idx]` reads and writes (advanced indexing).

Two facts the code makes certain: a negative padding value it put into idx (`-1` for a missing
neighbour), which advanced indexing wraps to the last row without an error (GL010), and values
made for a larger size than the indexed dim (`x[x > n] = n`, `.clamp(max=n)` before a table of n
rows), which raise (GL011).
"""
from __future__ import annotations

import ast
import re
from typing import Optional, Tuple

from ..dims import Sym, dim_text, must_equal, must_exceed, value
from ..rules import gl010_wrapped_indices as wrapped
from ..rules import gl004_index_from_wrong_dim as wrong_dim
from ..rules import gl011_index_out_of_range as out_of_range
from ..rules import gl015_index_rounded as index_rounded
from . import rounded_ranges, sentinel_slots, value_makers
from .advanced_indexing import index_node
from .text_scan import file_test, line_span, positions
from .tensor_ops import FLOAT_DTYPES, whole_slice
from .values import SeqVal, TensorVal


# what makes such values: a negative fill (`new_full(size, -1)`, `where(pad, -1, ids)`), a clamp
# written as `x[x > m] = m`; beside an embedding, a negative padding id (`pad_id: int = -1`). Blocks
# spelling none of these need no parse for these checks. Each is searched only where a plain
# substring says it can be: the prefilter runs on every file.
_FILL_CALL = re.compile(r"(?:full|full_like|where)\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*,\s*-\d+\s*[,)]")
_NEGATIVE_ARGUMENT = re.compile(r",\s*-\d")  # what every _FILL_CALL match holds, from one `,` to the next
_CLAMP_WRITE = re.compile(r"\s*(\w+)\[\1\s*>=?\s*([\w.]+)\]\s*=\s*\2\s*(?:#.*)?$")
_PAD_NAME = re.compile(r"\b(?:pad|ignore)\w*\s*(?::\s*int\s*)?$")


@file_test
def spelled_in(text: str) -> bool:
    negative = _NEGATIVE_ARGUMENT.search(text) is not None  # searched once: both negative tests need it
    if (negative and _negative_fill(text)) or _clamp_write(text) or (negative and _negative_literal(text)):
        return True
    # a `.clamp(max=n)` is checked only in files that name an op: beside every embedding it costs too much;
    # a negative pad named as a parameter (`pad=-1`) fills a buffer (`torch.full(size, pad)`) or meets a lookup
    return ("Embedding(" in text or "embedding(" in text or "full(" in text) and _negative_pad(text)


def _negative_fill(text: str) -> bool:
    """Asked only of a text holding `, -1` (_NEGATIVE_ARGUMENT): most files hold none, and `full` (fully,
    full_attention) is everywhere."""
    return any(_FILL_CALL.match(text, at) for needle in ("full", "where(") for at in positions(text, needle))


# `torch.tensor([[1, 2, -1], ...])`: a literal index table padded with a negative entry
_NEGATIVE_ENTRY = re.compile(r"[\[,(]\s*-\d+\s*[\],)]")


def _negative_literal(text: str) -> bool:
    """A tensor written out with a negative entry (the values analysis reads each literal's entries); asked
    only of a text holding `, -1` (_NEGATIVE_ARGUMENT)."""
    for at in positions(text, "tensor(["):
        end = text.find(")", at)
        if _NEGATIVE_ENTRY.search(text, at + 7, end if end != -1 else len(text)):
            return True
    return False


# a `>` with a write by subscript after it on its line: what every _CLAMP_WRITE line holds (`] = ` alone is
# on most lines of tensor code, and each hit cost a look at its line)
_COMPARED_WRITE = re.compile(r">[^\n]*\] = ")


def _clamp_write(text: str) -> bool:
    if _COMPARED_WRITE.search(text) is None:
        return False
    for at in positions(text, "] = "):
        start, end = line_span(text, at)
        if ">" in text[start:at] and _CLAMP_WRITE.match(text[start:end]):
            return True
    return False


def _negative_pad(text: str) -> bool:
    for needle in ("= -", "=-"):
        for at in positions(text, needle):
            start, _ = line_span(text, at)
            if text[at + len(needle):at + len(needle) + 1].isdigit() and _PAD_NAME.search(text, start, at):
                return True
    return False


def check(interp, node: ast.Subscript, owner, key) -> None:
    """`table[idx]` / `table[:, idx]` (read or write) with idx values the code made out of range."""
    found = _tensor_key(owner, key)
    picked = found is None
    found = found or _row_pick(interp, node, owner, key)
    if found is None:
        return
    axis, index = found
    domain = index.domain
    segment = interp.source.segment
    key_node = node.slice.elts[axis] if picked else index_node(node.slice)
    text, index_text = segment(node.value), segment(key_node)
    if not picked and domain.sentinel is not None and _read_on_purpose(interp, node, key_node, axis, domain.sentinel):
        return  # the last entry is one the code made for the -1: read on purpose
    if picked and domain.sentinel is not None and domain.sentinel < 0:
        _check_picked_padding(interp, node, owner, axis, text, index_text, domain)
        return
    if domain.sentinel is not None and domain.sentinel < 0:
        # in a function, on a whole index tensor: `v[f[1]]` in a driver's loop picks one known entry
        if interp.function is not None and not isinstance(key_node, ast.Subscript) \
                and not _compared_in_function(interp, index_text) and not _compared_in_function(interp, segment(node)):
            # (`keys[idx] == query`: the read only tests for a hit, and the test masks what is read after)
            interp.flag(node, wrapped.subscript_message(text, index_text, domain), None)
        return
    if not isinstance(owner, TensorVal) or owner.shape is None or owner.shape.variadic or axis >= len(owner.shape.dims):
        return
    here = owner.shape.dims[axis]
    columns = _coordinate_columns(owner.shape, axis, index) if not picked else None
    if columns:  # `grid[coords]` of [N, 3] coordinates: every column read along dim 0
        interp.flag(node, wrong_dim.coordinates_message(text, owner.shape, index_text, columns), None)
        return
    if not picked:  # a plain key (a row pick's positions are checked against their own dim below)
        wrong = _other_dims_positions(owner.shape, axis, domain)
        if wrong is not None:
            interp.flag(node, wrong_dim.subscript_message(text, owner.shape, axis, index_text, domain, *wrong), None)
            return
    if rounded_ranges.past(domain, here):
        interp.flag(node, rounded_ranges.message(index_text, domain, f"dim {axis} of `{text}`", value(here), axis), None)
        return
    if not _past(domain, here):
        return
    if any(must_equal(d, domain.size) for d in owner.shape.dims):
        return  # values made for another dim of the same tensor: GL004's question, not a range one
    interp.flag(node, out_of_range.subscript_message(text, owner.shape, axis, index_text, domain), None)


def _read_on_purpose(interp, node: ast.Subscript, key_node, axis: int, sentinel: int) -> bool:
    """-1 reads a last entry the code made for it: a table grown by one entry, or an index slot written after."""
    def rank(expr) -> Optional[int]:
        t = interp.env.get(expr.id) if isinstance(expr, ast.Name) else None
        return len(t.shape.dims) if isinstance(t, TensorVal) and t.shape is not None and not t.shape.variadic else None

    return sentinel_slots.grown_for(interp.function, node, axis, rank, sentinel) \
        or sentinel_slots.written_back(interp.function, node, key_node, axis, sentinel)


def _row_pick(interp, node: ast.Subscript, owner, key) -> Optional[Tuple[int, TensorVal]]:
    """(1, idx) for `x[torch.arange(n), idx]`: one entry per row, idx its position along dim 1."""
    if not isinstance(key, SeqVal) or key.names or len(key.items) != 2 or not isinstance(owner, TensorVal) \
            or not all(isinstance(item, TensorVal) for item in key.items):
        return None
    if not isinstance(node.slice, ast.Tuple) or value_makers.made_by(interp, node.slice.elts[0], ("arange",)) is None:
        return None
    index = key.items[1]
    if index.domain is None or index.dtype in ("bool", "uint8") or index.dtype in FLOAT_DTYPES:
        return None
    return 1, index


def _check_picked_padding(interp, node, owner, axis: int, text: str, index_text: str, domain) -> None:
    """Padding picked per row: past -size it raises (GL011), within it wraps to an entry from the end (GL010)."""
    if interp.function is None or _compared_in_function(interp, index_text):
        return
    here = owner.shape.dims[axis] if owner.shape is not None and not owner.shape.variadic \
        and axis < len(owner.shape.dims) else None
    size = value(here) if here is not None else None
    if size is not None and -domain.sentinel > size:
        interp.flag(node, out_of_range.padding_subscript_message(text, owner.shape, axis, index_text, domain), None)
    elif size is not None or domain.sentinel == -1:
        interp.flag(node, wrapped.subscript_message(text, index_text, domain), None)


def check_lookup(interp, node: ast.Call, ids_node, ids, rows, what: str) -> None:
    """`emb(ids)` / `F.embedding(ids, w)` with values made for more than `rows`."""
    if not isinstance(ids, TensorVal) or ids.domain is None:
        return
    text = interp.source.segment(ids_node)
    if rounded_ranges.past(ids.domain, rows):
        interp.flag(node, rounded_ranges.message(text, ids.domain, what, value(rows)), None)
        return
    rounded = index_rounded.check_lookup(text, ids.domain, what, rows)
    if rounded is not None and ids.dtype in ("int64", "int32"):
        interp.flag(node, rounded, None)  # GL015: ids past the float's exact range come back as a neighbour's
        return
    if not _past(ids.domain, rows):
        return
    interp.flag(node, out_of_range.lookup_message(text, ids.domain, rows, what), None)


def _other_dims_positions(shape, axis: int, domain):
    """(the dim the key's positions were made for, whether they certainly raise here) when they belong to one
    other dim of the indexed tensor: sizes that differ as names (B against 2), or values certainly past."""
    size = domain.size
    if size is None or domain.category or must_equal(shape.dims[axis], size):
        return None
    meant = [k for k, d in enumerate(shape.dims) if must_equal(d, size)]
    if len(meant) != 1 or meant[0] == axis:
        return None
    raises = must_exceed(size, shape.dims[axis])
    if not raises and not (isinstance(size, Sym) and isinstance(shape.dims[meant[0]], Sym)):
        return None  # sizes equal only as numbers say little about which dim the values were made for
    return meant[0], raises


def _coordinate_columns(shape, axis: int, index: TensorVal) -> Optional[tuple]:
    """The columns' tops when the key's last dim holds one coordinate per leading dim of the indexed tensor:
    column j capped at the last position of dim j (`minimum(coords, tensor(grid_shape) - 1)`), j = 0..k-1,
    k >= 2, some column past dim 0. Read as one key, every column indexes dim 0."""
    columns = dict(index.column_intervals or ())
    k = len(columns)
    if axis != 0 or k < 2 or sorted(columns) != list(range(k)) or k > len(shape.dims):
        return None
    tops = [columns[j].top for j in range(k)]
    if not all(isinstance(t, int) and value(shape.dims[j]) == t + 1 for j, t in enumerate(tops)):
        return None
    return tuple(tops) if any(t >= value(shape.dims[0]) for t in tops) else None


def _past(domain, here) -> bool:
    """Values certainly reach past a dim of size `here`: a larger size, or `n + 1` against n."""
    size = domain.size
    if size is None or here is None or domain.category and not domain.bound_only:
        return False  # (a written literal's largest id is one, whatever its name says the ids are)
    if must_exceed(size, here):
        return True
    return isinstance(size, Sym) and size.name == f"{dim_text(here)} + 1"


def _tensor_key(owner, key) -> Optional[Tuple[int, TensorVal]]:
    """(axis, index) for `[idx]` or `[:, ..., :, idx]`: one integer tensor with a value fact, full
    slices before it. An unknown owner only for `[idx]` alone (a tensor or an array: both wrap)."""
    if isinstance(key, TensorVal):
        items, position = [key], 0
    elif isinstance(key, SeqVal) and not key.names and isinstance(owner, TensorVal):
        tensors = [k for k, item in enumerate(key.items) if isinstance(item, TensorVal)]
        if len(tensors) != 1:
            return None
        items, position = list(key.items), tensors[0]
        if not all(whole_slice(item) for item in items[:position]):
            return None
    else:
        return None
    index = items[position]
    if index.domain is None or (index.dtype is not None and (index.dtype in ("bool", "uint8") or index.dtype in FLOAT_DTYPES)):
        return None  # a mask selects; a float index raises (GL008)
    if owner is not None and not isinstance(owner, TensorVal):
        return None
    return position, index


def _compared_in_function(interp, index_text: str) -> bool:
    """`ids == -1` / `ids < 0` / `ids >= 0` anywhere in the function: the author handles the padding
    around the lookup (reads the wrapped row, then masks it), which is not this mistake."""
    return index_text in _compared_texts(interp.function, interp.source.segment)


def _compared_texts(function, segment) -> frozenset:
    """The texts the function compares once (either side) or clamps, masks or `where`s by a method;
    one walk per function, kept on its node."""
    found = getattr(function, "_gather_lint_compared_texts", None)
    if found is None:
        texts = set()
        for node in ast.walk(function):
            if isinstance(node, ast.Compare) and len(node.ops) == 1:
                texts.update((segment(node.left), segment(node.comparators[0])))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("clamp", "clamp_min", "masked_fill", "where"):
                texts.add(segment(node.func.value))
        found = function._gather_lint_compared_texts = frozenset(texts)
    return found
