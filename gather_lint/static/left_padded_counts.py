"""GL024: a left-padded batch read at `mask.sum(1) - 1`, the last real position of a right-padded one.

Counting each row's real tokens and reading position `count - 1` finds the last token only when the padding
is on the right. On a batch padded on the left, every row's last token sits at the last position, and
`count - 1` reads a padding position or an earlier token for every row shorter than the longest, silently.
The left padding must be visible in the file: each sequence written at the end of its row
(`ids[i, -len(s):] = s`, `ids[i, T - len(s):] = s`) in the scope or a function of the file it calls,
`pad_sequence(..., padding_side="left")`, or a tokenizer's padded encoding in a file that sets
`padding_side = "left"` and no other side. The count is of a mask of that batch (returned with it, `ids != pad`,
the encoding's `attention_mask`), and the read is a row-wise pick or gather of a model's output on those ids.
"""
from __future__ import annotations

import ast
import re
from typing import Dict, Iterator, Optional, Set, Tuple

from ..rules import gl024_last_position_of_padded_batch as rule
from .padded_last_position import _SIDE_SET, _Lazy, _Lines, _holds, _models_return_sequences, _tokenized_with_padding, \
    _uncast, names_at, near_padding, padding_sides, reading_scopes
from .left_padding import written_at_back
from .text_scan import match_lines
from .tree_walk import called_name, own_nodes, scopes
from .text_scan import file_test

_LEFT_SIDE = re.compile(r"padding_side\s*=\s*[\"']left")
# a sequence written at the end of its row: `ids[i, -len(s):] = s`, `ids[i, width - n:] = s`
_BACK_WRITE = re.compile(r"\[\s*\w+\s*,\s*(?:-\s*|\w+\s*-\s*)[\w.()]+\s*:\s*\]\s*=[^=]")
_COUNT_READ = re.compile(r"-\s*1\b")


@file_test
def spelled_in(text: str) -> bool:
    return "sum(" in text and "- 1" in text and (
        _BACK_WRITE.search(text) is not None or "padding_side" in text and _LEFT_SIDE.search(text) is not None)


def check_module(blocks, text: str) -> Iterator[Tuple[ast.AST, object]]:
    """`blocks`: the file's blocks (file_blocks.py); only those holding the lines the patterns match are read."""
    reads = match_lines(text, _COUNT_READ)
    if not reads:
        return
    sides = "padding_side" in text
    left_tokenizers = sides and _LEFT_SIDE.search(text) is not None \
        and padding_sides(blocks.spanning(match_lines(text, _SIDE_SET)), text) == {"left"}
    back_writes = match_lines(text, _BACK_WRITE)
    if not sides and not near_padding(blocks, reads, back_writes, text):
        return  # most files: the counts and the padding are in blocks that cannot meet
    padders = _padders(blocks.spanning(back_writes), _Lines(back_writes)) if back_writes else {}
    listing = _Lazy(lambda: _models_return_sequences(blocks.whole()))
    # without a tokenizer's side the left padding is written in the scope itself or by a function it calls
    for scope in reading_scopes(blocks, text, reads, back_writes, padders, anywhere=sides):
        yield from _check_scope(scope, padders, listing, left_tokenizers)


def _padders(tree, padding) -> Dict[str, Set[Optional[int]]]:
    """Functions of the file returning left-padded buffers: name -> positions in the returned tuple."""
    found: Dict[str, Set[Optional[int]]] = {}
    for scope in scopes(tree)[1:]:
        if not padding(scope):
            continue
        nodes = own_nodes(scope)
        padded = _left_padded(nodes, {}, False)
        for node in nodes:
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Name) and node.value.id in padded:
                found.setdefault(scope.name, set()).add(None)
            elif isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
                found.setdefault(scope.name, set()).update(
                    i for i, e in enumerate(node.value.elts) if isinstance(e, ast.Name) and e.id in padded)
    return found


def _left_padded(nodes, padders, left_tokenizers: bool) -> Set[str]:
    padded = set()
    for node in nodes:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target, value = node.targets[0], node.value
        if isinstance(target, ast.Subscript) and written_at_back(target) and isinstance(target.value, ast.Name):
            padded.add(target.value.id)
        elif isinstance(target, ast.Name) and (left_tokenizers and _tokenized_with_padding(_uncast(value))
                                               or _pads_left(value)):
            padded.add(target.id)
        elif called_name(value) in padders:
            padded.update(names_at(target, padders[called_name(value)]))
        elif isinstance(target, ast.Name) and isinstance(_uncast(value), ast.Name) and _uncast(value).id in padded:
            padded.add(target.id)
    return padded


def _pads_left(value) -> bool:
    if called_name(value) != "pad_sequence":
        return False
    side = next((k.value for k in value.keywords if k.arg == "padding_side"), None)
    return isinstance(side, ast.Constant) and side.value == "left"


def _check_scope(scope, padders, listing, left_tokenizers: bool) -> Iterator[Tuple[ast.AST, object]]:
    nodes = own_nodes(scope)
    padded = _left_padded(nodes, padders, left_tokenizers)
    if not padded:
        return
    held: Dict[str, Tuple[str, str]] = {}
    counts: Set[str] = set()
    lasts: Set[str] = set()
    rows: Set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
            kind = _holds(value, padded, held, listing)
            if kind is not None:
                held[name] = kind
            if _count_of(value, padded):
                counts.add(name)
            if _reads_count_minus_one(value, counts, lasts, padded):
                lasts.add(name)  # `last = mask.sum(1) - 1`, `ends = (last).view(-1, 1, 1).expand(...)`
            if called_name(value) in ("arange", "range"):
                rows.add(name)
    for node in nodes:
        read = _row_read(node, rows)
        if read is None:
            continue
        source, index = read
        kind = _holds(source, padded, held, listing)
        if kind is None or kind[0] not in ("output", "positions"):
            continue
        if _reads_count_minus_one(index, counts, lasts, padded):
            yield node, rule.left_padded_count(ast.unparse(node), kind[1])


def _row_read(node, rows) -> Optional[Tuple[ast.expr, ast.expr]]:
    """(tensor, index) of `x[torch.arange(B), idx]` and of `x.gather(1, idx)`."""
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Tuple) \
            and len(node.slice.elts) >= 2:
        first = node.slice.elts[0]
        if called_name(first) in ("arange", "range") or isinstance(first, ast.Name) and first.id in rows:
            return node.value, node.slice.elts[1]
    if isinstance(node, ast.Call) and called_name(node) == "gather" and isinstance(node.func, ast.Attribute) \
            and len(node.args) == 2:
        return node.func.value, node.args[1]
    return None


def _mask_of(node, padded: Set[str]) -> bool:
    """A mask of a padded batch: a name returned with it, `ids != pad`, `enc["attention_mask"]`."""
    node = _uncast(node)
    if isinstance(node, ast.Name):
        return node.id in padded
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.NotEq):
        return isinstance(_uncast(node.left), ast.Name) and _uncast(node.left).id in padded
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "attention_mask":
        return isinstance(node.value, ast.Name) and node.value.id in padded
    if isinstance(node, ast.Attribute) and node.attr == "attention_mask":
        return isinstance(node.value, ast.Name) and node.value.id in padded
    return False


def _count_of(value, padded: Set[str]) -> bool:
    """`mask.sum(1)`, `mask.sum(dim=-1)`, `torch.sum(mask, 1)`, `(ids != pad).long().sum(-1)`."""
    value = _uncast(value)
    if called_name(value) != "sum":
        return False
    if isinstance(value.func, ast.Attribute) and not (isinstance(value.func.value, ast.Name)
                                                      and value.func.value.id == "torch"):
        return _mask_of(value.func.value, padded)
    return bool(value.args) and _mask_of(value.args[0], padded)


def _minus_one(node, counts: Set[str], padded: Set[str]) -> bool:
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and isinstance(node.right, ast.Constant)
            and node.right.value == 1):
        return False
    left = _uncast(node.left)
    return isinstance(left, ast.Name) and left.id in counts or _count_of(left, padded)


def _reads_count_minus_one(expr, counts: Set[str], lasts: Set[str], padded: Set[str]) -> bool:
    return any(_minus_one(n, counts, padded) or isinstance(n, ast.Name) and n.id in lasts for n in ast.walk(expr))
