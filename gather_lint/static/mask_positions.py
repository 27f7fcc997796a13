"""GL007: a [MASK] token written at position `n` of each row, and the model's output read at `n - 1`.

A masked-item model (BERT4Rec, a cloze-style scorer) appends a [MASK] after each row's last real token,
`seq[b, lengths[b]] = mask_token`, runs the model, and predicts from the output at the mask. Reading the
output at `lengths - 1` reads the last real token's position instead, silently. Found by syntax:

- the write: `seq[row, pos] = <mask token>` in a loop over the lengths (`for b, pos in enumerate(n.tolist())`,
  `pos = n[b]`), `seq[torch.arange(B), n] = <mask token>`, or `seq.scatter_(1, n.unsqueeze(1), <mask token>)`,
  in the scope itself or in a function of the file that returns the sequence it wrote (`n` a parameter);
  the token is named as a mask token (`mask_token`, `mask_id`, `mask_token_id`, `MASK`);
- the read, in the same scope: a model called on the written sequence, its output gathered (`gather`,
  `take_along_dim`, `out[torch.arange(B), n - 1]`, or a function of the file that gathers its first
  argument at its second) at `n - 1`, with the same lengths `n`.
"""
from __future__ import annotations

import ast
import re
from typing import Dict, Iterator, List, Optional, Set, Tuple

from ..contract import Violation
from ..rules import gl007_shift_misalignment as rule
from .row_picks import bound, picked
from .text_scan import any_between, match_lines
from .tree_walk import called_name, own_nodes, scopes
from .text_scan import file_test

_MASK_TOKEN = re.compile(r"^(?:mask_?token(?:_?(?:id|idx|index))?|mask_?(?:id|idx|index))$", re.IGNORECASE)
_MASK_CONSTANT = re.compile(r"^MASK(?:_[A-Z]+)*$")
_LIBRARIES = {"torch", "F", "nn", "np", "numpy", "math"}


@file_test
def spelled_in(text: str) -> bool:
    if not (("mask" in text or "MASK" in text) and "- 1" in text):
        return False
    # each half of the pattern starts with a literal, which the regex engine scans for quickly
    return "] = " in text and _WRITTEN.search(text) is not None or "scatter" in text and _SCATTERED.search(text) is not None


# a write of a mask token by subscript or scatter: `seq[b, n] = self.mask_token`, `.scatter_(1, pos, MASK_ID)`
_WRITTEN = r"\] = [\w.]*(?:[Mm]ask_?(?:[Tt]oken(?:_?[Ii][Dd]|_?[Ii]dx)?|[Ii][Dd]|[Ii]dx|[Ii]ndex)|MASK(?:_[A-Z]+)*)\b"
_SCATTERED = r"scatter_?\([^\n]*(?:[Mm]ask_?(?:[Tt]oken|[Ii][Dd]|[Ii]dx)|MASK)"
_MASK_IN_TEXT = re.compile(f"{_WRITTEN}|{_SCATTERED}")
_WRITTEN, _SCATTERED = re.compile(_WRITTEN), re.compile(_SCATTERED)


def check_module(blocks, text: str) -> Iterator[Tuple[ast.AST, Violation]]:
    """`blocks`: the file's blocks (file_blocks.py); the blocks that write a mask token are read, then
    those that call a function writing one."""
    written_lines = match_lines(text, _MASK_IN_TEXT)
    tree = blocks.spanning(written_lines)
    all_scopes = scopes(tree)
    writing = _spanning(written_lines)
    writers = {}  # function name -> index of the lengths parameter (self not counted)
    inline = []  # scopes that write the mask themselves
    for scope in all_scopes:
        if not writing(scope):
            continue
        nodes = own_nodes(scope)
        written = _mask_writes(nodes)
        if written:
            inline.append(scope)
        if scope is tree:
            continue
        params = _params(scope)
        returned = {n.value.id for n in nodes if isinstance(n, ast.Return) and isinstance(n.value, ast.Name)}
        for seq, lengths in written:
            if seq in returned and lengths in params:
                writers[scope.name] = params.index(lengths)
    if not writers and not inline:
        return
    calling_lines = match_lines(text, re.compile(r"\b(?:%s)\(" % "|".join(writers))) if writers else []
    calling = _spanning(calling_lines)
    readers = inline + [s for s in scopes(blocks.spanning(calling_lines))[1:] if s not in inline and calling(s)]
    gatherers = _Gatherers(lambda: {s.name: s for s in scopes(blocks.whole())[1:]})
    for scope in readers:
        yield from _check_scope(scope, writers, gatherers)


def _spanning(lines):
    """Whether a function scope spans one of `lines` (the module scope: whether any line is outside a def)."""
    ordered = sorted(lines)

    def spans(scope) -> bool:
        first, last = getattr(scope, "lineno", 1), getattr(scope, "end_lineno", None) or 1
        if isinstance(scope, ast.Module):
            return bool(ordered)
        return any_between(ordered, first, last)
    return spans


class _Gatherers:
    """Functions of the file that gather their first argument at their second: (input, index) parameter
    positions, read on first use."""

    def __init__(self, read_functions):
        self._read, self._functions, self.known = read_functions, None, {}  # the file's functions, by name

    def __contains__(self, name) -> bool:
        return self[name] is not None

    def __getitem__(self, name):
        if name not in self.known:
            if self._functions is None:  # parsed on the first question
                self._functions = self._read()
            fn = self._functions.get(name)
            self.known[name] = _gathers_param(own_nodes(fn), _params(fn)) if fn is not None else None
        return self.known[name]


def _params(fn) -> List[str]:
    names = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    return names[1:] if names[:1] in (["self"], ["cls"]) else names


def _is_mask_token(node) -> bool:
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    return name is not None and (_MASK_TOKEN.match(name) is not None or _MASK_CONSTANT.match(name) is not None)


def _mask_writes(nodes) -> Set[Tuple[str, str]]:
    """(sequence, lengths) of each mask-token write at one position per row."""
    loop_of: Dict[str, str] = {}  # loop variable -> the lengths it runs over
    values: Dict[str, ast.expr] = {}
    for node in nodes:
        if isinstance(node, (ast.For, ast.comprehension)):
            lengths = _lengths_iterated(node.iter)
            target = node.target
            if lengths is not None:
                if isinstance(target, ast.Tuple) and len(target.elts) == 2 and isinstance(target.elts[1], ast.Name):
                    loop_of[target.elts[1].id] = lengths
                elif isinstance(target, ast.Name):
                    loop_of[target.id] = lengths
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            values[node.targets[0].id] = node.value
    found = set()
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript) \
                and _is_mask_token(node.value):
            target = node.targets[0]
            key = target.slice
            if isinstance(target.value, ast.Name) and isinstance(key, ast.Tuple) and len(key.elts) == 2:
                row, pos = key.elts
                lengths = _position_lengths(row, pos, loop_of, values)
                if lengths is not None:
                    found.add((target.value.id, lengths))
        elif isinstance(node, ast.Call) and called_name(node) in ("scatter_", "scatter") \
                and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and len(node.args) == 3 \
                and _is_mask_token(node.args[2]) and ast.unparse(node.args[0]) in ("1", "-1"):
            lengths = _column_of(node.args[1])
            if lengths is not None:
                found.add((node.func.value.id, lengths))
    return found


def _lengths_iterated(node) -> Optional[str]:
    """n of `n.tolist()`, `enumerate(n.tolist())`, `enumerate(n)`, `zip(range(B), n)`."""
    if called_name(node) in ("enumerate", "zip") and node.args:
        node = node.args[-1]
    if called_name(node) == "tolist" and isinstance(node.func, ast.Attribute):
        node = node.func.value
    return node.id if isinstance(node, ast.Name) else None


def _position_lengths(row, pos, loop_of, values) -> Optional[str]:
    if isinstance(pos, ast.Name) and pos.id in loop_of:
        return loop_of[pos.id]
    if isinstance(pos, ast.Name) and called_name(bound(row, values)) in ("arange", "range"):
        return pos.id  # seq[torch.arange(B), n]
    if isinstance(pos, ast.Subscript) and isinstance(pos.value, ast.Name) and ast.unparse(pos.slice) == ast.unparse(row):
        return pos.value.id  # seq[b, n[b]]
    return None


def _column_of(node) -> Optional[str]:
    """n of `n.unsqueeze(1)`, `n.unsqueeze(-1)`, `n[:, None]`, `n.view(-1, 1)`."""
    if called_name(node) in ("unsqueeze", "view", "reshape") and isinstance(node.func, ast.Attribute):
        node = node.func.value
    elif isinstance(node, ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _minus_one_of(node) -> Optional[str]:
    """n of `n - 1`."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and isinstance(node.left, ast.Name) \
            and isinstance(node.right, ast.Constant) and node.right.value == 1:
        return node.left.id
    return None


def _data_names(expr) -> Iterator[str]:
    """Names whose values an expression reads: not those it only takes a size of (`x.shape[-1]`, `x.size(0)`)."""
    sized = {id(n.value) for n in ast.walk(expr) if isinstance(n, ast.Attribute) and n.attr in ("shape", "size", "dim")}
    return (n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and id(n) not in sized)


def _gathers_param(nodes, params) -> Optional[Tuple[int, int]]:
    """(input, index) parameter positions of a function that gathers one parameter at another."""
    derived: Dict[str, Set[str]] = {p: {p} for p in params}
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            sources = set().union(*(derived.get(n, set()) for n in _data_names(node.value)))
            derived[node.targets[0].id] = sources
    for node in nodes:
        read = picked(node, {})
        if read is None:
            continue
        source, index = read
        inputs = set().union(*(derived.get(n, set()) for n in _data_names(source)))
        indices = set().union(*(derived.get(n, set()) for n in _data_names(index)))
        if len(inputs) == 1 and len(indices) == 1 and inputs != indices:
            return params.index(inputs.pop()), params.index(indices.pop())
    return None


def _check_scope(scope, writers, gatherers) -> Iterator[Tuple[ast.AST, Violation]]:
    nodes = own_nodes(scope)
    values: Dict[str, ast.expr] = {}
    written: Dict[str, str] = {seq: lengths for seq, lengths in _mask_writes(nodes)}  # sequence -> lengths
    outputs: Dict[str, str] = {}  # model output name -> the lengths its mask was written at
    for node in nodes:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        name, value = node.targets[0].id, node.value
        values[name] = value
        if isinstance(value, ast.Call) and called_name(value) in writers:
            at = writers[called_name(value)]
            lengths = value.args[at] if at < len(value.args) else None
            if isinstance(lengths, ast.Name):
                written[name] = lengths.id
                continue
        model_input = _model_input(value, written)
        if model_input is not None:
            outputs[name] = written[model_input]
        elif name in outputs and not _reads_output(value, name, outputs, gatherers):
            outputs.pop(name)
    for node in nodes:
        hit = _reads_output(node, None, outputs, gatherers, values)
        if hit is not None:
            at, lengths, shown = hit
            yield at, _read_before_mask(shown, lengths)


def _model_input(value, written) -> Optional[str]:
    """The written sequence a model call runs on: `model(seq)`, `self.forward(seq)`, `self.encoder(seq, ...)`."""
    if not isinstance(value, ast.Call):
        return None
    root = value.func
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name) or root.id in _LIBRARIES:
        return None
    for arg in list(value.args) + [k.value for k in value.keywords]:
        if isinstance(arg, ast.Name) and arg.id in written:
            return arg.id
    return None


def _reads_output(node, name, outputs, gatherers, values=None):
    """(node to report, lengths, text) when `node` reads a model output at `n - 1` of its mask's lengths."""
    values = values or {}
    if isinstance(node, ast.Call) and called_name(node) in gatherers and not picked(node, values):
        first, second = gatherers[called_name(node)]
        if max(first, second) < len(node.args):
            source, index = node.args[first], node.args[second]
            if isinstance(source, ast.Name) and source.id in outputs and _minus_one_of(index) == outputs[source.id]:
                return index, outputs[source.id], ast.unparse(node)
        return None
    read = picked(node, values)
    if read is None:
        return None
    source, index = read
    if isinstance(source, ast.Name) and source.id in outputs:
        lengths = outputs[source.id]
        if any(_minus_one_of(n) == lengths for n in ast.walk(index)):
            return node, lengths, ast.unparse(node)
    return None


def _read_before_mask(read: str, lengths: str) -> Violation:
    return Violation(
        rule.CODE, rule.SEVERITY,
        f"`{read}` reads the model's output at `{lengths} - 1`, but the mask token was written at position "
        f"`{lengths}` of each row: this reads the last real token's state, not the mask's, silently; read at "
        f"`{lengths}`",
        help=f"read the output at `{lengths}`, where the mask token is",
    )
