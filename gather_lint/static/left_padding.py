"""GL024 on the value: a batch padded on the left, its mask, the count of real tokens per row, minus one.

A row-wise pick at `mask.sum(1) - 1` reads each row's last real token only where padding follows the tokens.
On a batch padded on the left (`torch.tensor([[pad] * (width - len(s)) + s for s in seqs])`,
`pad_sequence(..., padding_side="left")`) every row ends at the last position, and the pick reads padding or
an earlier token for each row shorter than the longest, silently. The fact rides on the tensors wherever the
analysis carries them (a model's forward given the batch, a helper): the batch (`left_padded`: the line that
put the padding first), a comparison of it with its padding value, that mask's counts along the rows (and
their casts), and the counts minus one.
"""
from __future__ import annotations

import ast
import re
from typing import Optional

from ..dims import must_equal
from ..rules import gl024_last_position_of_padded_batch as rule
from .config import DictVal
from .text_scan import file_test
from .tree_walk import called_name
from .tensor_ops import SliceVal
from .values import DimVal, SeqVal, TensorVal

# `ids[i, -len(s):] = s`, `ids[i, width - n:] = s`; `[pad] * (width - len(s)) + s` (or `+ [1] * len(s)`)
_BACK_WRITE = re.compile(r"\[\s*\w+\s*,\s*(?:-\s*|\w+\s*-\s*)[\w.()]+\s*:\s*\]\s*=[^=]")
_BACK_SLICE = re.compile(r"\bslice\(\s*(?:-\s*|\w+\s*-\s*)")  # span = slice(width - len(s), width)
_PAD_FIRST = re.compile(r"\[\s*\w+\s*\]\s*\*\s*\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\)\s*\+\s*[\w\[]")


@file_test
def spelled_in(text: str) -> bool:
    """A count minus one beside a left padding the file makes: the parts GL024 reads (the file is read whole,
    since the padding and the read are often in different functions, joined by a model call)."""
    return "sum(" in text and "- 1" in text and (
        _BACK_WRITE.search(text) is not None or _PAD_FIRST.search(text) is not None or _BACK_SLICE.search(text) is not None
        or "padding_side" in text and sets_left_only(text))


_KEEPS = ("long", "int", "to", "type", "clone", "detach", "contiguous", "cpu", "cuda", "float", "view", "reshape",
          "expand", "expand_as", "unsqueeze")
_COMPARISONS = ("ne", "eq", "not_equal")


def made_rows(func: str, node: ast.Call, made):
    """`torch.tensor([[pad] * (w - len(s)) + s for s in seqs])`: rows with their padding first."""
    if func not in ("tensor", "as_tensor", "LongTensor") or not node.args or not (made is None or isinstance(made, TensorVal)):
        return made
    rows = node.args[0]
    if isinstance(rows, ast.ListComp) and _padding_first(rows.elt):
        return (made or TensorVal()).with_(left_padded=node.lineno)  # a tensor, whatever else is known of it
    return made


def joined(items, dim, stack: bool, result):
    """`torch.cat([prompt_ids, response_ids], dim=1)` of a batch padded on the left: its rows still hold padding
    before real tokens (now between the prompt's and the response's), so the count of real tokens minus one is no
    last position either. Joined along the batch (dim 0) or stacked, the rows are other rows: nothing is said."""
    if stack or dim is None or not isinstance(result, TensorVal) or result.shape is None or result.shape.variadic \
            or len(result.shape.dims) != 2 or dim not in (1, -1):
        return result
    lines = [t.left_padded for t in items if isinstance(t, TensorVal) and t.left_padded is not None]
    return result.with_(left_padded=lines[0]) if lines else result


def _padding_first(elt) -> bool:
    """`[pad] * n + s`: a one-item list repeated, then the sequence; or its mask, `[0] * n + [1] * len(s)` (a
    repeat of another written value: the same one twice is no padding)."""
    if not (isinstance(elt, ast.BinOp) and isinstance(elt.op, ast.Add)):
        return False
    pad, count = _repeated_item(elt.left)
    if pad is None:
        return False
    after, tokens = _repeated_item(elt.right)
    # a mask: another written value after the padding, as many as the tokens (the padding's count is what is
    # left of the width: `[1] * len(s) + [0] * (width - len(s))` pads on the right)
    return after is None or isinstance(pad, ast.Constant) and isinstance(after, ast.Constant) \
        and pad.value != after.value and _is_difference(count) and not _is_difference(tokens)


def _repeated_item(node):
    """The item and the count of `[item] * n` (or `n * [item]`), else (None, None)."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
        return None, None
    for side, other in ((node.left, node.right), (node.right, node.left)):
        if isinstance(side, ast.List) and len(side.elts) == 1:
            return side.elts[0], other
    return None, None


def _is_difference(node) -> bool:
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub)


def _cut_from_the_back(key) -> Optional[SliceVal]:
    """The slice of `buf[i, -len(s):]` / `buf[i, width - n:]` / `buf[i, width - n:width]` (written out, or a
    `slice(...)` object bound to a name), from the evaluated key: a row's positions counted back from an end."""
    items = key.items if isinstance(key, SeqVal) and not key.names else ()
    if len(items) != 2 or isinstance(items[0], SliceVal) or not isinstance(items[1], SliceVal):
        return None
    cut = items[1]
    lower = cut.syntax.lower if cut.syntax is not None else None
    if cut.step is not None or not (isinstance(lower, ast.UnaryOp) and isinstance(lower.op, ast.USub)
                                    or _is_difference(lower)):
        return None
    return cut


def written(owner, target: ast.Subscript, key):
    """A buffer after `buf[i, width - len(s):] = s` (or `...:width]` with width its row length): its last
    positions written, the padding before them: padded on the left."""
    cut = _cut_from_the_back(key) if isinstance(owner, TensorVal) else None
    if cut is not None and (cut.upper is None or _is_row_length(owner, cut.upper)):
        return owner.with_(left_padded=target.lineno)
    return owner


def _is_row_length(owner: TensorVal, end) -> bool:
    """Whether a slice's end is the length of the buffer's rows (its dim 1), for certain."""
    shape = owner.shape
    if shape is None or shape.variadic or len(shape.dims) != 2 or shape.dims[1] is None:
        return False
    return isinstance(end, DimVal) and end.dim is not None and must_equal(end.dim, shape.dims[1])


def padded_left(kwargs: dict, made):
    """pad_sequence(..., padding_side="left")."""
    side = kwargs.get("padding_side")
    if isinstance(made, TensorVal) and getattr(side, "value", None) == "left":
        return made.with_(left_padded=-1)
    return made


def after_method(method: str, owner, result, args, kwargs=None):
    """Casts keep the fact; `ids != pad` / `ids.ne(pad)` makes the mask; `mask.sum(1)` its counts."""
    if not isinstance(owner, TensorVal) or owner.left_padded is None or not isinstance(result, TensorVal):
        return result
    if method in _KEEPS or method in _COMPARISONS or method == "sum" and _along_rows(owner, args, kwargs or {}):
        return result.with_(left_padded=owner.left_padded)
    return result


def compared(left, right, result):
    """`ids != pad` (either side)."""
    for side in (left, right):
        if isinstance(side, TensorVal) and side.left_padded is not None and isinstance(result, TensorVal):
            return result.with_(left_padded=side.left_padded)
    return result


def minus_one(left, right, symbol: Optional[str], result):
    """`counts - 1`: the positions a pick will read; any other arithmetic ends the fact."""
    if symbol == "-" and isinstance(left, TensorVal) and left.left_padded is not None \
            and isinstance(right, DimVal) and right.dim == 1 and isinstance(result, TensorVal):
        return result.with_(left_padded=left.left_padded)
    return result.with_(left_padded=None) if isinstance(result, TensorVal) and result.left_padded is not None else result


def _along_rows(owner: TensorVal, args, kwargs: dict) -> bool:
    """`sum(1)` / `sum(dim=-1)` of a 2-d mask (the tokens of each row)."""
    dim = args[0] if args else kwargs.get("dim")
    rank = len(owner.shape.dims) if owner.shape is not None and not owner.shape.variadic else None
    return isinstance(dim, DimVal) and dim.dim in (1, -1) and rank in (None, 2)


def check_gather(interp, node: ast.Call, index, dim) -> None:
    """`states.gather(1, ends)` with `ends` made from the counts minus one of a left-padded batch."""
    if isinstance(index, TensorVal) and index.left_padded is not None and dim == 1:
        interp.flag(node, rule.left_padded_batch_count(interp.source.segment(node), index.left_padded), None)


_SIDE = re.compile(r"padding_side\s*=(?!=)\s*(\S)")  # set, not compared (`== "right"`)
_LEFT = re.compile(r"padding_side\s*=\s*[\"']left[\"']")


@file_test
def sets_left_only(text: str) -> bool:
    """The file sets a tokenizer's padding side, to "left" every time (`tokenizer.padding_side = "left"`,
    `from_pretrained(..., padding_side="left")`)."""
    if "padding_side" not in text:
        return False
    sides = [m for m in _SIDE.finditer(text) if _set_on_something(text, m.start())]
    return bool(sides) and all(_LEFT.match(text, m.start()) for m in sides)


def _set_on_something(text: str, at: int) -> bool:
    """`tok.padding_side = ...` or a keyword `padding_side=...`, not a plain variable or class attribute of
    that name (a stand-in tokenizer's `padding_side = "right"` default)."""
    return text[text.rfind("\n", 0, at) + 1:at].strip() != ""


def tokenized(interp, node: ast.Call, result):
    """`tokenizer(texts, padding=True, return_tensors="pt")` in a file whose tokenizers pad on the left: the
    encoding's `input_ids` and `attention_mask` are padded on the left."""
    if not any(k.arg == "padding" for k in node.keywords):
        return result  # most calls: asked of every call that is no site
    keywords = {k.arg: k.value for k in node.keywords}
    padding = keywords.get("padding")
    if "return_tensors" not in keywords or not isinstance(padding, ast.Constant) \
            or padding.value not in (True, "longest", "max_length") or not sets_left_only(interp.source.text):
        return result
    items = dict(result.items) if isinstance(result, DictVal) else {}
    for key in ("input_ids", "attention_mask"):
        found = items.get(key)
        items[key] = (found if isinstance(found, TensorVal) else TensorVal()).with_(left_padded=node.lineno)
    return DictVal(tuple(items.items()), closed=isinstance(result, DictVal) and result.closed)


def check_pick(interp, node: ast.Subscript, key) -> None:
    """`x[torch.arange(B), last]` with `last` the counts minus one of a left-padded batch."""
    items = key.items if isinstance(key, SeqVal) and not key.names else ()
    if len(items) != 2 or not isinstance(node.slice, ast.Tuple):
        return
    last = items[1]
    if not isinstance(last, TensorVal) or last.left_padded is None:
        return
    rows = node.slice.elts[0]
    if called_name(rows) != "arange":
        return
    interp.flag(node, rule.left_padded_batch_count(interp.source.segment(node), last.left_padded), None)
