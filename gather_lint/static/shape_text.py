"""Shapes written as text: shape comments, jaxtyping/torchtyping strings, docstring Args.

Parsers return None unless the text is unmistakably a shape: a comment that is prose must
never become a fact, because a wrong fact is how a linter cries wolf.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional

from ..dims import Dim, Shape, Sym, value as value_of

# One dim as people write it: a name, an int, or a small expression of those (L-1, 2*D, n_head*hs).
_ATOM = r"[A-Za-z_][A-Za-z0-9_]*|\d+"
_DIM = re.compile(rf"^(?:{_ATOM})(?:\s*[-+*/]\s*(?:{_ATOM}))*$")
_VARIADIC = re.compile(r"^(?:\.\.\.|\*[A-Za-z_][A-Za-z0-9_]*|…)$")
_UNKNOWN = {"_", "?", "-1", ":"}  # -1 and : are what people write for "whatever size"

# Words allowed before a shape in a comment: "shape:", "-> ", "out =", "of shape". A "name:" prefix
# is allowed only for the variable being assigned: "# Indices: [1, 3, 5]" lists values, not a shape.
_NAME_PREFIX = re.compile(r"^\s*([A-Za-z_][\w.]*)\s*[:=]\s*")
_PREFIX = re.compile(
    r"^\s*(?:(?:(?:new|output|out|result|input|returned|final)\s+)?"
    r"(?:shapes?|size|dims?)\b\s*(?:is|=|:|of)?\s*|(?:of|has|with)\s+shape\s*:?\s*|->\s*|=>\s*)?"
)
# a shape said of a named subject: `shape(x) is`, `size of x:`, `x.shape =` (the name is no dim, and the shape
# belongs to that name)
_SUBJECT = re.compile(r"^\s*(?:(?:shapes?|size)\s*(?:\(\s*`?([A-Za-z_][\w.]*)`?\s*\)|\s+of\s+`?([A-Za-z_][\w.]*)`?)"
                      r"|`?([A-Za-z_][\w.]*)\.(?:shape|size\(\))`?)\s*(?:is|=|:)\s*(?=[\[(])")
_GROUP = re.compile(r"^(?:torch\.Size\(\s*)?([\[(])([^\[\]()]*)([\])])")
# the whole `a x b x c` run or nothing: `batch x channels x 2*height x width` is no [batch, channels], and
# `batch x length x self.num_labels` no [batch, length, self] (a dot ends the run only where a sentence does)
_BY_X = re.compile(rf"^((?:{_ATOM}|\.\.\.))(\s+x\s+(?:{_ATOM}|\.\.\.))+(?=$|\s|[,;]|\.(?!\w))(?!\s+x\s)")
_DIM_WORD = re.compile(r"^(?:[A-Z][A-Za-z0-9_]{0,2}|\d+|.*(?:size|len|num|batch|seq|dim|vocab|n_).*)$")


def parse_dim(token: str) -> Dim:
    token = token.strip()
    if token in _UNKNOWN:
        return None
    if token.isdigit():
        return int(token)
    if _DIM.match(token):
        return Sym(re.sub(r"\s+", "", token))
    raise ValueError(token)


def dims_to_shape(tokens: List[str]) -> Optional[Shape]:
    """Tokens of a written shape to a Shape; None if any token is not a dim."""
    dims: List[Dim] = []
    variadic = False
    for position, token in enumerate(tokens):
        token = token.strip()
        if _VARIADIC.match(token):
            if position != 0:
                return None  # a variadic group in the middle: too uncertain to use
            variadic = True
            continue
        try:
            dims.append(parse_dim(token))
        except ValueError:
            return None
    return Shape(tuple(dims), variadic)


def parse_group(text: str, strict: bool = True) -> Optional[Shape]:
    """`[B, L, V]`, `(B, T, C)`, `torch.Size([2, 3])` at the start of text."""
    match = _GROUP.match(text)
    if match is None:
        return None
    opening, body, closing = match.groups()
    if (opening == "[") != (closing == "]"):
        return None
    tokens = [t for t in body.split(",")]
    if tokens and not tokens[-1].strip():
        tokens = tokens[:-1]  # trailing comma: (B,)
        single_ok = True
    else:
        single_ok = False
    if not tokens or any(not t.strip() for t in tokens):
        return None
    if len(tokens) == 1 and _BY_X_WORD.match(tokens[0].strip()):
        tokens, single_ok = _X_BETWEEN.split(tokens[0].strip()), True  # `(BxNum_jointsx3)`: B x Num_joints x 3
    elif len(tokens) == 1 and len(spaced := _X_SPACED.split(tokens[0].strip())) > 1 \
            and all(_DIM_WORD.match(part) for part in spaced):
        tokens, single_ok = spaced, True  # `[B x S x H]`, `[B X S]`: the sizes written with a spaced x
    if strict and len(tokens) == 1 and not single_ok and not _DIM_WORD.match(tokens[0].strip()):
        return None
    if strict and len(tokens) == 1 and not single_ok and opening == "(" and tokens[0].strip().isdigit():
        return None  # `# (3) compute the trace term`: a numbered step; `(3)` is the int 3, a shape is `(3,)`
    return dims_to_shape(tokens)


# `BxNx3`, `BxNum_jointsx3`, `HxW`: sizes, each starting with a capital or a digit, joined by a lower-case x
_BY_X_WORD = re.compile(r"[A-Z0-9][A-Za-z0-9_]*?(?:x[A-Z0-9][A-Za-z0-9_]*?)+$")
_X_BETWEEN = re.compile(r"x(?=[A-Z0-9])")
_X_SPACED = re.compile(r"\s+[xX]\s+")


_SHAPE_WORDS = {"shape", "shapes", "size", "dims", "out", "output", "result"}
# an arrow between two written shapes: `->`, or typed with a space (`- >`), or the arrow sign
_ARROW = re.compile(r"-\s*>|\u2192")


def parse_comment(comment: str, target: Optional[str] = None, above: bool = False) -> Optional[Shape]:
    """A shape comment in the styles real code uses; None for anything that reads as prose.

    `target` is the assigned variable: `# logits: [B, L, V]` is a shape for `logits` only. A trailing
    `# x: [B, T] -> [B, T, D]` gives the statement's result; a line `above` that names another variable
    describes that variable (or the function: `# adj_lists: ... -> (N, K)` above its first statement).
    """
    text = comment.lstrip("#").strip()
    if not text:
        return None
    arrows = list(_ARROW.finditer(text))
    if arrows:
        before = _NAME_PREFIX.match(text)
        if above and before and before.group(1) != target and before.group(1).lower() not in _SHAPE_WORDS:
            return None  # the line above describes another name's transformation
        # the last arrow gives the result, however it is typed: `[N, H, W] -> [N, 1, H*W] - > [N, C, H*W]`
        # is a chain whose `- >` step is the expand on the line, not prose after a shape [N, 1, H*W]
        text = text[arrows[-1].end():]
    subject = _SUBJECT.match(text)
    if subject:  # `shape(new_cnn_cache) is (B, D, T)`, `shape of h: (B, D)`, `h.shape = (B, D)`: h's shape
        name = next(g for g in subject.groups() if g)
        if name != target and name.split(".")[-1] != target:
            return None
        text = text[subject.end():]
    named = _NAME_PREFIX.match(text) if not subject else None
    if named:
        name = named.group(1)
        if name.lower() not in _SHAPE_WORDS and name != target and name.split(".")[-1] != target:
            if not arrows:
                return None
        text = text[named.end():]
    text = _PREFIX.sub("", text, count=1).strip()
    text = text.strip("`")
    shape = parse_group(text)
    if shape is not None:
        # `# [0]` after `landmarks(img)`: a commented-out index; no one writes an empty dim as a shape
        return None if any(value_of(d) == 0 for d in shape.dims) else shape
    match = _BY_X.match(text)
    if match:
        return dims_to_shape(re.split(r"\s+x\s+", match.group(0)))
    return None


def arrow_start(comment: str) -> Optional[Shape]:
    """The first shape of an arrow chain (`# (n_states, B) -> (B,)` gives (n_states, B)); None without an arrow."""
    text = comment.lstrip("#").strip()
    arrow = _ARROW.search(text)
    if arrow is None:
        return None
    head = text[:arrow.start()].strip()
    named = _NAME_PREFIX.match(head)
    if named:
        head = head[named.end():]
    return parse_group(_PREFIX.sub("", head, count=1).strip().strip("`"))


def parse_jaxtyping(spec: str) -> Optional[Shape]:
    """jaxtyping's dim string: "batch seq vocab", "*batch d", "... d", "b 1 d", "_", "#b"."""
    tokens = spec.split()
    dims: List[Dim] = []
    variadic = False
    for position, token in enumerate(tokens):
        if token in ("...", "*") or token.startswith("*"):
            if position != 0:
                return None
            variadic = True
            continue
        token = token.lstrip("#")  # '#b' may broadcast (size 1): its size is not known
        if tokens[position].startswith("#"):
            dims.append(None)
            continue
        token = token.split("=")[0]  # 'b=3' names a dim with a checked value
        try:
            dims.append(parse_dim(token))
        except ValueError:
            return None
    return Shape(tuple(dims), variadic)


_DOC_LINE = re.compile(r"^\s*(?::param\s+)?(?:[\w.]+\s+)?\*{0,2}([A-Za-z_]\w*)\s*(.*)$")
_DOC_SHAPE = re.compile(r"(?:of\s+|with\s+|,\s*)?[Ss]hapes?\s*[:=]?\s*`?(?=[\[(])|^\s*(?:\([^()]*\))?\s*:\s*`?(?=[\[(])")
_DOC_DTYPE = {"LongTensor": "int64", "BoolTensor": "bool"}  # float types are named loosely: not taken


def parse_docstring(doc: str, params, items: Optional[Dict[str, tuple]] = None) -> Dict[str, tuple]:
    """{param: (Shape or None, dtype or None)} for parameters whose docstring entry gives a shape,
    on the entry's line or, as `of shape (B, T)`, on the first more indented line that continues it.
    `items`, when given, receives the same for entries that describe a list or tuple of tensors of that shape
    (`past: tuple with one tensor per layer, each of shape (2, B, H, T, D)`): the shape of each item."""
    found: Dict[str, tuple] = {}
    wanted = set(params)
    entry, entry_indent, entry_text = None, 0, ""
    shaped, shaped_indent = None, 0  # the entry whose shape its own line gave: its next line may offer another
    watched, watched_indent = None, 0  # the entry whose shape was taken, while its lines go on
    two_forms = set()  # entries found to give two ranks: a later line naming the parameter gives none either
    for line in doc.splitlines():
        indent = len(line) - len(line.lstrip())
        if shaped is not None and indent > shaped_indent and _ALTERNATIVE.match(line.strip()):
            del found[shaped]  # "of shape (B, T, V)" / "or (B, V)": either rank, so neither is a fact
            two_forms.add(shaped)
            watched = None
        shaped = None
        if watched is not None and line.strip() and (indent <= watched_indent or _names_a_parameter(line, wanted)):
            watched = None  # the next entry (`idx: ...` below a docstring's first line is indented further)
        if watched is not None and watched in found and _other_rank(line, len(found[watched][0].dims)):
            del found[watched]  # "batched with shape (R, S). Else it must be flattened with shape (N,)": either
            two_forms.add(watched)
            watched = None
        if entry is not None and indent > entry_indent and line.strip():
            where = _DOC_CONTINUED.search(line)
            if where is None and _SHAPE_AT_END.search(entry_text):  # "..., each of shape" / "(2, B, H, T, D)"
                where = _GROUP_AT_START.match(line)
            shape = parse_group(line[where.end():].lstrip("`"), strict=False) if where is not None else None
            if where is not None and _MANY.search(entry_text + line[:where.start()]):
                if shape is not None and items is not None and _SEQUENCE_OF.search(entry_text + line[:where.start()]):
                    items[entry] = (shape, _doc_dtype(entry_text))
                shape = None  # "List of tensors of shape [B, N]": the parameter is not one tensor
            if shape is not None:
                found[entry] = (shape, _doc_dtype(entry_text))
                watched, watched_indent = entry, entry_indent
                if _other_rank(line[where.end():], len(shape.dims)):
                    del found[entry]
                    two_forms.add(entry)
            entry = None  # only the first line that continues an entry gives a shape: later ones drift to other things
            continue
        entry = None
        match = _DOC_LINE.match(line)
        if match is None or match.group(1) not in wanted or match.group(1) in found or match.group(1) in two_forms:
            continue
        rest = match.group(2)
        shape = None
        where = _DOC_SHAPE.search(rest)
        if where is not None and not _MANY.search(rest[:where.start()]) and not _ALTERNATIVE.search(rest[where.end():]) \
                and not _MEMBERS.match(rest[where.end():]):
            shape = parse_group(rest[where.end():].lstrip("`"), strict=False)
        elif where is not None and items is not None and _SEQUENCE_OF.search(rest[:where.start()]) \
                and not _ALTERNATIVE.search(rest[where.end():]):
            each = parse_group(rest[where.end():].lstrip("`"), strict=False)
            if each is not None:
                items[match.group(1)] = (each, _doc_dtype(rest[: where.start() + 1]))
            continue
        if shape is not None:
            found[match.group(1)] = (shape, _doc_dtype(rest[: where.start() + 1]) or trailing_dtype(rest[where.end():]))
            shaped, shaped_indent = match.group(1), indent
            watched, watched_indent = match.group(1), indent
            if _other_rank(rest[where.end():], len(shape.dims)):
                del found[match.group(1)]
                two_forms.add(match.group(1))
                shaped = watched = None
            for name, more, dtype in typed_entries(line.strip()):  # `x: (B, D), idx: (K,)`: one line, several
                if name in wanted and name not in found:
                    found[name] = (more, dtype)
        else:
            entry, entry_indent, entry_text = match.group(1), indent, rest
    return found


def _names_a_parameter(line: str, wanted) -> bool:
    match = _DOC_LINE.match(line)
    return match is not None and match.group(1) in wanted and match.group(2)[:1] in (":", "(", " ")


def _other_rank(text: str, rank: int) -> bool:
    """A further `with shape (...)` / `of shape (...)` in an entry's text, of another rank than the one taken:
    the entry describes two forms of the parameter (batched or flattened)."""
    for where in _SHAPE_PHRASE.finditer(text):
        other = parse_group(text[where.end():].lstrip("`"), strict=False)
        if other is not None and not other.variadic and len(other.dims) != rank:
            return True
    return False


_SHAPE_PHRASE = re.compile(r"\b(?:of|with)\s+shapes?\s*[:=]?\s*`*(?=[\[(])")
# a second shape offered for the same parameter: "(B, T, V) or (B, V)", "`(batch, seq)` or `(batch,)`"
_ALTERNATIVE = re.compile(r"(?i)(?:^|\W)or\s+(?:of\s+shape\s+|shape\s+)?`*[\[(]")
# "list of tensors ... of shape", "tuple with one tensor per layer, each of shape": a sequence whose items each
# have the shape (a dict's items are its keys when iterated: not taken)
_SEQUENCE_OF = re.compile(r"(?i)\b(?:list|tuple|sequence|iterable)s?\b[^.;]*\b(?:tensors?|each|arrays?)\b|\b(?:List|Tuple|Sequence)\[\s*(?:torch\.)?Tensor\b|\beach\s*$")
_SHAPE_AT_END = re.compile(r"\bshapes?\s*:?\s*$")  # an entry whose shape is on its next line
_GROUP_AT_START = re.compile(r"^\s*(?=[\[(])")  # ... which then starts with it
# ("each of shape (N,)" right at the start: the parameter holds several items of that shape)
_MANY = re.compile(r"(?i)\b(?:list|tuple|sequence|iterable|dict)s?\b|\b(?:List|Tuple|Sequence|Iterable|Dict)\[|\beach\s*$")
# "(H, C) of tensor [layer, batch, hidden]": the group names a tuple's members, each a tensor of the later shape
_MEMBERS = re.compile(r"^`*[\[(][^\[\]()]*[\])]`*\s+of\s+(?:\w+\s+)?(?:[Tt]ensors?|arrays?|shapes?)\b")
_DOC_CONTINUED = re.compile(r"\b(?:of|with)\s+shapes?\s*[:=]?\s*`*(?=[\[(])|^\s*[Ss]hapes?\s*[:=]?\s*`*(?=[\[(])")


def _doc_dtype(text: str) -> Optional[str]:
    for name, value in _DOC_DTYPE.items():
        if name in text:
            return value
    return None


_NAME = r"[A-Za-z_][\w.]*?(?:\.shape|\.size\(\))?"
# `name:` or several names sharing the entry (`actions, log_probs: [N]`)
_ENTRY = re.compile(rf"({_NAME}(?:\s*,\s*{_NAME})*)\s*[:=]\s*")
_SUFFIX = re.compile(r"(?:\.shape|\.size\(\))$")
_NEXT_SHAPE = re.compile(r"\s*,\s*`*(?=[\[(])")
_SEPARATOR = re.compile(r"[\s,;]*")


def _by_x(text: str) -> Optional[Shape]:
    """`B x N x C`, only when every part looks like a dim: `use x for` is prose."""
    parts = re.split(r"\s+x\s+", text)
    return dims_to_shape(parts) if all(_DIM_WORD.match(p) for p in parts) else None


def parse_named_entries(comment: str) -> List[tuple]:
    """`# memory: [B, N, C]`, `# obs: (batch, obs_dim)  act: (batch,)`: [(name, Shape)], else [].

    The line must start with `name:` and a bracketed dim list; further `name: [...]` entries may
    follow; the first thing that is not one ends the list (prose after a shape is fine).
    """
    return [(name, shape) for name, shape, _ in typed_entries(comment)]


# a dtype written right after a shape (`finished: (B,) bool`, `ids: [B, T] long`); float types are named
# loosely (`float` of any width) and not taken
_DTYPE_WORD = re.compile(r"\s*`?(?:torch\.)?(bool|long|int64|BoolTensor|LongTensor)\b(?!\s*(?:or|/)\s*\w)")
_DTYPE_NAMES = {"bool": "bool", "BoolTensor": "bool", "long": "int64", "int64": "int64", "LongTensor": "int64"}


def trailing_dtype(text: str) -> Optional[str]:
    """The dtype a shape's text names right after its closing bracket: `(batch,) bool` -> "bool"."""
    group = _GROUP.match(text.lstrip("`"))
    if group is None:
        return None
    word = _DTYPE_WORD.match(text.lstrip("`")[group.end():].lstrip("`"))
    return _DTYPE_NAMES[word.group(1)] if word is not None else None


def typed_entries(comment: str) -> List[tuple]:
    """parse_named_entries with the dtype each entry names after its shape: [(name, Shape, dtype or None)]."""
    text = comment.lstrip("#").strip()
    found: List[tuple] = []
    while True:
        entry = _ENTRY.match(text)
        if entry is None:
            break
        names = [_SUFFIX.sub("", n.strip()) for n in entry.group(1).split(",")]
        shapes, rest = _shapes_at(text[entry.end():], len(names))
        if not shapes:
            break
        if len(shapes) == 1:
            shapes = shapes * len(names)  # `a, b: [N]`: one shape for every name
        elif len(shapes) != len(names):
            break  # `a, b: [B, T], [B, T, V], [B]`: which is whose is not certain
        word = _DTYPE_WORD.match(rest) if len(shapes) == 1 else None
        dtype = _DTYPE_NAMES[word.group(1)] if word is not None else None
        rest = rest[word.end():] if word is not None else rest
        for name, shape in zip(names, shapes):
            if any(isinstance(d, Sym) for d in shape.dims):  # `# ids: [0, 2, 1]` may list values, not sizes
                found.append((name, shape, dtype))
        text = rest[_SEPARATOR.match(rest).end():]
    return found


def _shapes_at(text: str, names: int) -> tuple:
    """The shape at the start of `text` and, for an entry of several names, the shapes listed after it
    (`a, b: [B, T], [B]`): ([Shape], the text after them)."""
    shapes: List[Shape] = []
    rest = text.lstrip("`")
    while True:
        group = _GROUP.match(rest) or _BY_X.match(rest)  # [B, T, D] / (B, T, D) / B x T x D
        shape = None
        if group is not None:
            shape = parse_group(rest) if group.re is _GROUP else _by_x(group.group(0))
        if shape is None:
            return shapes, rest
        shapes.append(shape)
        rest = rest[group.end():].lstrip("`")
        more = _NEXT_SHAPE.match(rest)
        if names == 1 or more is None:
            return shapes, rest
        rest = rest[more.end():]


_DOC_INT = re.compile(r"^\s*(?::param\s+int\s+)?\*{0,2}([A-Za-z_]\w*)\s*\(\s*`?int`?\s*(?:,\s*optional\s*)?\)\s*:")


def docstring_ints(doc: str, params) -> set:
    """Parameters a docstring types as `int` (`num_classes (int): C.`): sizes, like an `int` annotation."""
    wanted = set(params)
    found = set()
    for line in doc.splitlines():
        match = _DOC_INT.match(line)
        if match is not None and match.group(1) in wanted:
            found.add(match.group(1))
    return found


_ARROW_AFTER_SHAPE = r"\s*:?\s*[\[(][^\])\n]*[\])]\s*(?:-+>|=+>|\u2192)"


def transformed(line_text: str, name: str) -> bool:
    """`# logits: (B, L, D) -> (L, B, D)`: the comment gives the name's shape, then the one a step makes of it."""
    return re.search(rf"(?<![\w.]){re.escape(name)}{_ARROW_AFTER_SHAPE}", line_text) is not None

