"""GL024: the last position (`h[:, -1]`) of a model's output on a right-padded batch.

A batch of sequences of different lengths padded on the right holds each shorter row's padding at its
last positions, so `h[:, -1, :]` reads a padding position for every row but the longest: batching
silently changes the result. The right padding must be visible in the file:

- a function of the file (or the scope itself) writing each sequence at the front of its row of a
  buffer (`ids[i, :len(s)] = s`), returned (`ids, mask = pad_batch(seqs)`);
- `pad_sequence(seqs, batch_first=True)` (right padding unless `padding_side="left"`);
- rows padded at their end and stacked (`torch.stack([F.pad(s, (0, n)) for s in seqs])`, `torch.cat([s, pad])`
  appended to a list that is stacked);
- a tokenizer's padded encoding (`tokenizer(texts, padding=True, return_tensors="pt")`, handed to the model as
  `**enc`, `enc["input_ids"]` or `enc.input_ids`) in a file that sets `padding_side = "right"` and no other side.

The read tensor is followed back, by assignment, to a model call on the padded ids: through casts, an
element of what the model returns when the file's models return a list or tuple (`hidden_states[layer]`),
and the per-position outputs of a library model (`.last_hidden_state`, `.hidden_states[k]`). The read must
keep the rank of a per-position tensor: `[:, -1, :]` (three dims: batch, position, features), or `[:, -1]`
of `.last_hidden_state` / `.hidden_states[k]`.
"""
from __future__ import annotations

import ast
import re
from typing import Dict, Iterator, Optional, Set, Tuple

from ..rules import gl024_last_position_of_padded_batch as rule
from .text_scan import DEFINED_FUNCTION, any_between, any_match, call_lines, match_lines, positions, starts_word
from .tree_walk import called_name, full_slice, own_nodes, scopes, statements, subscripted_name
from .text_scan import file_test

_CASTS = {"to", "cuda", "cpu", "long", "int", "detach", "contiguous", "clone", "float"}
# elementwise and running ops: every position stays where it was
_SAME_POSITIONS = _CASTS | {"cumsum", "softmax", "log_softmax", "tanh", "sigmoid", "relu", "exp", "log", "half",
                            "bfloat16", "double", "type_as", "numpy"}
_NOT_MODELS = {"len", "list", "tuple", "range", "zip", "enumerate", "print", "isinstance", "max", "min", "sum",
               "sorted", "str", "int", "float", "dict", "set", "getattr", "hasattr"}
_LIBRARIES = {"torch", "F", "nn", "np", "numpy", "functional", "math", "random", "os", "json", "re"}
_PER_POSITION = {"last_hidden_state", "encoder_last_hidden_state"}  # library outputs: [B, T, H]
_PER_LAYER = {"hidden_states", "encoder_hidden_states", "decoder_hidden_states"}  # tuples of [B, T, H]


_RIGHT_SIDE = re.compile(r"padding_side\s*=\s*[\"']right")
# a row padded at its end: `F.pad(s, (0, n))`, `torch.cat([s, pad])`, `torch.cat([s, s.new_zeros(n)])`
_PAD_CALL = re.compile(r"pad\(\s*[\w.]+\s*,\s*[(\[]\s*0\s*,")
_CAT_PADDED = re.compile(r"cat\(\s*[\[(]\s*\w+\s*,\s*(?:\w*pad\w*\s*[\])]|[\w.]*(?:full|zeros|ones)\()")


@file_test
def _pads_at_end(text: str) -> bool:
    """A pad at a row's end, looked for at each `pad(` and `cat(`: one regex of both, with no literal to
    start from, was tried at every position of the text (a fifth of a second on transformers)."""
    return any(starts_word(text, at) and _PAD_CALL.match(text, at) for at in positions(text, "pad(")) \
        or any_match(text, "cat(", _CAT_PADDED)


# a sequence written at the front of its row: `ids[i, :len(s)] = s`, `ids[row][:n] = s`
_FRONT_WRITE = re.compile(r"\[\s*\w+\s*(?:,|\]\[)\s*:\s*[\w.()\[\]]+\s*\]\s*=[^=]")
_LAST_READ = re.compile(r"\[:,\s*-1\b")
_PADDING_UNSTACKED = re.compile(rf"pad_sequence\(|{_FRONT_WRITE.pattern}")
_PADDING = re.compile(rf"{_PADDING_UNSTACKED.pattern}|stack\(")
_SIDE_SET = re.compile(r"padding_side\s*=")


@file_test
def spelled_in(text: str) -> bool:
    return ("[:, -1" in text or "[:,-1" in text) and ("pad_sequence" in text or _FRONT_WRITE.search(text) is not None
                                                      or "stack(" in text and _pads_at_end(text)
                                                      or "padding_side" in text and _RIGHT_SIDE.search(text) is not None)


def check_module(blocks, text: str) -> Iterator[Tuple[ast.AST, object]]:
    """`blocks`: the file's blocks (file_blocks.py); only those holding the lines the patterns match are read."""
    reads = match_lines(text, _LAST_READ)
    if not reads:
        return
    right = "padding_side" in text and _RIGHT_SIDE.search(text) is not None \
        and _tokenizers_pad_right(blocks.spanning(match_lines(text, _SIDE_SET)), text)
    # a stack pads only rows padded at their end: without such a pad in the file, stacks are not read
    padding = _PADDING if _pads_at_end(text) else _PADDING_UNSTACKED
    padding_lines = match_lines(text, padding)
    if not right and not near_padding(blocks, reads, padding_lines, text):
        return  # most files: the reads and the padding are in blocks that cannot meet
    padders = _padders(blocks.spanning(padding_lines), _Lines(padding_lines)) if padding_lines else {}
    listing = _Lazy(lambda: _models_return_sequences(blocks.whole()))
    for scope in reading_scopes(blocks, text, reads, padding_lines, padders, anywhere=right):
        yield from _check_scope(scope, padders, listing, right)


def reading_scopes(blocks, text: str, reads, padding_lines, padders, anywhere: bool) -> list:
    """The scopes spanning a line that reads a position (`reads`). Unless `anywhere` (the file's tokenizers
    pad every batch), only those that pad themselves (`padding_lines`) or call one of the file's `padders`:
    no other block can read a padded batch, and only the blocks holding such reads are parsed."""
    sources = None
    if not anywhere:
        sources = _Lines(list(padding_lines) + call_lines(text, padders))
        near = {blocks.block_of(line) for line in sources.lines}
        reads = [line for line in reads if blocks.block_of(line) in near]
    within = _Lines(reads)
    return [scope for scope in scopes(blocks.spanning(reads)) if within(scope) and (sources is None or sources(scope))]


def near_padding(blocks, reads, padding_lines, text: str) -> bool:
    """Whether a block reading a position (`reads`: line numbers) pads, or calls a function defined in a block
    that pads: a test on the text before any block is parsed."""
    padding = {blocks.block_of(line) for line in padding_lines}
    names = {name for i in padding for name in DEFINED_FUNCTION.findall(blocks.chunk(i))}
    near = padding | {blocks.block_of(line) for line in call_lines(text, names)}
    return any(blocks.block_of(line) in near for line in reads)


class _Lines:
    """Whether a scope spans one of some lines."""

    def __init__(self, lines):
        self.lines = sorted(lines)

    def __call__(self, scope) -> bool:
        first, last = getattr(scope, "lineno", 1), getattr(scope, "end_lineno", None) or 1
        return scope.__class__ is ast.Module or any_between(self.lines, first, last)


class _Lazy:
    def __init__(self, make):
        self.make, self.done, self.value = make, False, None

    def __bool__(self) -> bool:
        if not self.done:
            self.value, self.done = self.make(), True
        return bool(self.value)


def _tokenizers_pad_right(tree: ast.Module, text: str) -> bool:
    """Whether the file sets its tokenizers' padding side, and only ever to the right."""
    return padding_sides(tree, text) == {"right"}


def names_at(target, positions: Set[Optional[int]]) -> Set[str]:
    """The names a padder's result is bound to: the whole (`None` in positions) or tuple items by position."""
    if isinstance(target, ast.Name):
        return {target.id} if None in positions else set()
    if isinstance(target, ast.Tuple):
        return {e.id for i, e in enumerate(target.elts) if i in positions and isinstance(e, ast.Name)}
    return set()


def padding_sides(tree: ast.Module, text: str) -> set:
    """The padding sides the file sets (`tokenizer.padding_side = "right"`, `from_pretrained(...,
    padding_side="left")`); None for a side that is not a literal. Only the statements on lines that
    set one are walked."""
    on_lines = _Lines(match_lines(text, _SIDE_SET))
    setting = [stmt for stmt in statements(tree) if not hasattr(stmt, "body") and on_lines(stmt)]
    sides = set()
    for node in (n for stmt in setting for n in ast.walk(stmt)):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "padding_side"
                                                for t in node.targets):
            sides.add(node.value.value if isinstance(node.value, ast.Constant) else None)
        elif isinstance(node, ast.keyword) and node.arg == "padding_side":
            sides.add(node.value.value if isinstance(node.value, ast.Constant) else None)
    return sides


def _tokenized_with_padding(value) -> bool:
    """`tokenizer(texts, padding=True, return_tensors="pt")`: a batch padded to its longest row (or further)."""
    if not isinstance(value, ast.Call):
        return False
    keywords = {k.arg: k.value for k in value.keywords}
    padding = keywords.get("padding")
    return "return_tensors" in keywords and isinstance(padding, ast.Constant) \
        and padding.value in (True, "longest", "max_length")


def _padders(tree: ast.Module, padding) -> Dict[str, Set[Optional[int]]]:
    """Functions of the file returning a right-padded buffer: name -> positions in the returned tuple
    (None: the whole return value). Only functions spanning a line that pads (`padding`) are read."""
    found: Dict[str, Set[Optional[int]]] = {}
    for scope in scopes(tree)[1:]:
        if not padding(scope):
            continue
        nodes = own_nodes(scope)
        padded = _padded_names(nodes, {})
        fills, rows = _fills_and_rows(nodes)
        for node in nodes:
            if isinstance(node, ast.Return) and node.value is not None:
                if isinstance(node.value, ast.Name) and node.value.id in padded \
                        or _stacks_padded_rows(node.value, rows, fills) or _pads_right(node.value):
                    found.setdefault(scope.name, set()).add(None)
                elif isinstance(node.value, ast.Tuple):
                    found.setdefault(scope.name, set()).update(
                        i for i, e in enumerate(node.value.elts) if isinstance(e, ast.Name) and e.id in padded)
    return found


def _padded_names(nodes, padders, right_tokenizers: bool = False) -> Set[str]:
    """Names holding a right-padded batch in one scope (a tokenizer's encoding when the file pads them right)."""
    padded = set()
    fills, rows = _fills_and_rows(nodes)
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and _stacks_padded_rows(node.value, rows, fills):
            padded.add(node.targets[0].id)
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            if right_tokenizers and isinstance(target, ast.Name) and _tokenized_with_padding(_uncast(value)):
                padded.add(target.id)
                continue
            if isinstance(target, ast.Subscript) and _front_of_row(target):
                name = subscripted_name(target)
                if name is not None:
                    padded.add(name)
            elif isinstance(target, ast.Name) and _pads_right(value):
                padded.add(target.id)
            elif called_name(value) in padders and isinstance(value.func, (ast.Name, ast.Attribute)):
                padded.update(names_at(target, padders[called_name(value)]))
            elif isinstance(target, ast.Name) and isinstance(_uncast(value), ast.Name) and _uncast(value).id in padded:
                padded.add(target.id)  # `ids = ids.to(device)`
    return padded


def _fills_and_rows(nodes) -> Tuple[Set[str], Set[str]]:
    """Names of pad fills (`pad = torch.full((n,), pad_id)`) and of lists of rows appended padded at their end."""
    fills = {t.id for n in nodes if isinstance(n, ast.Assign) and called_name(n.value) in _FILLS
             for t in n.targets if isinstance(t, ast.Name)}
    rows = {n.func.value.id for n in nodes if called_name(n) == "append" and isinstance(n.func, ast.Attribute)
            and isinstance(n.func.value, ast.Name) and len(n.args) == 1 and _padded_row(n.args[0], fills)}
    return fills, rows


_FILLS = {"full", "zeros", "ones", "new_full", "new_zeros", "new_ones", "full_like", "zeros_like"}


def _padded_row(node, fills: Set[str]) -> bool:
    """One sequence padded at its end: `F.pad(s, (0, n))`, `torch.cat([s, pad])` with `pad` a fill."""
    name = called_name(node)
    if name == "pad" and len(node.args) >= 2 and isinstance(node.args[1], (ast.Tuple, ast.List)) \
            and len(node.args[1].elts) == 2:
        before, after = node.args[1].elts
        return isinstance(before, ast.Constant) and before.value == 0 and \
            not (isinstance(after, ast.Constant) and after.value == 0)
    if name in ("cat", "concat") and node.args and isinstance(node.args[0], (ast.Tuple, ast.List)) \
            and len(node.args[0].elts) == 2:
        last = node.args[0].elts[1]
        return called_name(last) in _FILLS or isinstance(last, ast.Name) and last.id in fills
    return False


def _stacks_padded_rows(value, rows: Set[str], fills: Set[str]) -> bool:
    """`torch.stack([F.pad(s, (0, n)) for s in seqs])`, `torch.stack(rows)` of rows appended padded at the end."""
    if called_name(value) not in ("stack", "vstack") or not value.args:
        return False
    parts = value.args[0]
    if isinstance(parts, (ast.ListComp, ast.GeneratorExp)):
        return _padded_row(parts.elt, fills)
    return isinstance(parts, ast.Name) and parts.id in rows


def _front_of_row(target: ast.Subscript) -> bool:
    """`buf[i, :len(s)]` / `buf[i, :n]` / `buf[i][:len(s)]`: a row's first positions."""
    key = target.slice
    if isinstance(key, ast.Tuple) and len(key.elts) == 2:
        row, cut = key.elts
    elif isinstance(target.value, ast.Subscript) and not isinstance(target.value.slice, (ast.Slice, ast.Tuple)):
        row, cut = target.value.slice, key
    else:
        return False
    return not isinstance(row, ast.Slice) and isinstance(cut, ast.Slice) and cut.lower is None and cut.step is None \
        and cut.upper is not None and _is_length(cut.upper)


def _is_length(node) -> bool:
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Call) and called_name(node) == "len":
        return True
    if isinstance(node, ast.Call) and called_name(node) in ("size", "numel") and isinstance(node.func, ast.Attribute):
        return not node.args or ast.unparse(node.args[0]) in ("0", "-1")
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape"


def _pads_right(value) -> bool:
    """`pad_sequence(seqs, batch_first=True)` without `padding_side="left"`."""
    if called_name(value) != "pad_sequence":
        return False
    keywords = {k.arg: k.value for k in value.keywords}
    first = keywords.get("batch_first", value.args[1] if len(value.args) > 1 else None)
    side = keywords.get("padding_side", value.args[3] if len(value.args) > 3 else None)
    return isinstance(first, ast.Constant) and first.value is True and \
        (side is None or isinstance(side, ast.Constant) and side.value == "right")


def _models_return_sequences(tree: ast.Module) -> bool:
    """Whether the file's models (classes with a `forward`) all return a list or a tuple, and there is one."""
    verdicts = []
    for node in statements(tree):
        if isinstance(node, ast.ClassDef):
            forward = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "forward"), None)
            if forward is not None:
                verdicts.append(_returns_sequence(forward))
    return bool(verdicts) and all(verdicts)


def _returns_sequence(fn: ast.FunctionDef) -> bool:
    nodes = own_nodes(fn)
    lists = {t.id for n in nodes if isinstance(n, ast.Assign) and isinstance(n.value, (ast.List, ast.ListComp))
             for t in n.targets if isinstance(t, ast.Name)}
    returns = [n.value for n in nodes if isinstance(n, ast.Return) and n.value is not None]
    return bool(returns) and all(isinstance(r, (ast.Tuple, ast.List)) or isinstance(r, ast.Name) and r.id in lists
                                 for r in returns)


def _check_scope(scope, padders, listing: bool, right_tokenizers: bool) -> Iterator[Tuple[ast.AST, object]]:
    nodes = own_nodes(scope)
    padded = _padded_names(nodes, padders, right_tokenizers)
    if not padded:
        return
    # name -> (what it holds: "output" of the model, "layers" (a list of outputs) or "positions", the ids name)
    held: Dict[str, Tuple[str, str]] = {}
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            kind = _holds(node.value, padded, held, listing)
            if kind is not None:
                held[node.targets[0].id] = kind
            else:
                held.pop(node.targets[0].id, None)
    for node in nodes:
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            read = _last_position_read(node)
            if read is None:
                continue
            kind = _holds(node.value, padded, held, listing)
            if kind is not None and (kind[0] == "positions" or kind[0] == "output" and read == 3):
                yield node, rule.last_position(ast.unparse(node), kind[1])


def _holds(value, padded: Set[str], held, listing: bool) -> Optional[Tuple[str, str]]:
    value = _uncast(value, _SAME_POSITIONS)
    if isinstance(value, ast.Name):
        return held.get(value.id)
    if isinstance(value, ast.Attribute):
        inner = _holds(value.value, padded, held, listing)
        if inner is None or inner[0] not in ("output", "library"):
            return None
        if value.attr in _PER_POSITION:
            return "positions", inner[1]
        return ("library_layers", inner[1]) if value.attr in _PER_LAYER else None
    if isinstance(value, ast.Subscript) and not isinstance(value.slice, (ast.Slice, ast.Tuple)):
        inner = _holds(value.value, padded, held, listing)
        if inner is None:
            return None
        if inner[0] == "library_layers":
            return "positions", inner[1]
        if inner[0] == "output" and listing:
            return "output", inner[1]  # one element of the list a model of the file returns
        return None
    if isinstance(value, ast.Call) and _is_model(value):
        # `model(ids)`, `model(input_ids=ids)`, `model(**enc)`, `model(enc["input_ids"])`, `model(enc.input_ids)`
        args = list(value.args[:1]) + [k.value for k in value.keywords]
        ids = next((name for name in map(_batch_name, args) if name in padded), None)
        if ids is not None:
            return "output", ids
    return None


def _is_model(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id not in _NOT_MODELS
    if isinstance(func, ast.Attribute):
        root = func.value
        while isinstance(root, ast.Attribute):
            root = root.value
        # `model.encoder(ids)`, `self.net(ids)`; not a method of a value (`x.cumsum(1)`) nor a library function
        return isinstance(root, ast.Name) and root.id not in _LIBRARIES and func.attr not in _SAME_POSITIONS
    return False


def _batch_name(node) -> Optional[str]:
    node = _uncast(node)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "input_ids":
        node = node.value
    elif isinstance(node, ast.Attribute) and node.attr == "input_ids":
        node = node.value
    node = _uncast(node)
    return node.id if isinstance(node, ast.Name) else None


def _uncast(node, methods=_CASTS):
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in methods:
        node = node.func.value
    return node


def _last_position_read(node: ast.Subscript) -> Optional[int]:
    """2 for `x[:, -1]`, 3 for `x[:, -1, :]`: the last position of every row; None otherwise."""
    key = node.slice
    if not isinstance(key, ast.Tuple) or len(key.elts) not in (2, 3):
        return None
    first, position, *rest = key.elts
    minus_one = isinstance(position, ast.UnaryOp) and isinstance(position.op, ast.USub) \
        and isinstance(position.operand, ast.Constant) and position.operand.value == 1
    if full_slice(first) and minus_one and all(full_slice(e) for e in rest):
        return len(key.elts)
    return None
