"""Meaning-preserving rewrites of a program, for measuring whether the form of code decides a finding.

Each rewrite takes a program's text and the lines of interest (a bug's faulty calls) and returns the
rewritten text with those lines' new numbers, or None where it does not apply. Rewrites edit the text at
positions the `ast` gives (comments, shape comments included, stay where they are), so each keeps what
the program does; `rewrites.py` checks that in torch for the pairs it reports.
"""
from __future__ import annotations

import ast
import builtins
import io
import keyword
import re
import tokenize
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

Pos = Tuple[int, int]  # (1-based line, 0-based character column)


@dataclass(frozen=True)
class Edit:
    start: Pos
    end: Pos
    text: str


@dataclass
class Rewritten:
    text: str
    lines: Dict[int, int]  # old line of interest -> its line in the rewritten text


# the family ops whose index a rewrite may move: method name -> position of the index among the
# method's arguments (the function form torch.op(input, ...) has it one later)
INDEX_ARG = {"gather": 1, "scatter": 1, "scatter_": 1, "scatter_add": 1, "scatter_add_": 1,
             "scatter_reduce": 1, "scatter_reduce_": 1, "index_select": 1, "index_add": 1, "index_add_": 1,
             "index_copy": 1, "index_copy_": 1, "index_fill": 1, "index_fill_": 1, "take_along_dim": 0}
# keyword names of the method form's positional arguments
METHOD_PARAMS = {"gather": ("dim", "index"), "scatter": ("dim", "index", "src"),
                 "scatter_add": ("dim", "index", "src"), "index_select": ("dim", "index"),
                 "take_along_dim": ("indices", "dim"), "index_add": ("dim", "index", "source"),
                 "index_copy": ("dim", "index", "source")}
for _name in ("scatter", "scatter_add", "index_add", "index_copy"):
    METHOD_PARAMS[_name + "_"] = METHOD_PARAMS[_name]


class Source:
    """A program's text with its tree, tokens and position helpers."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.tree = ast.parse(text)
        self.tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                child.parent = node  # type: ignore[attr-defined]

    def char_col(self, line: int, byte_col: int) -> int:
        """ast columns count UTF-8 bytes; edits count characters."""
        return len(self.lines[line - 1].encode("utf-8")[:byte_col].decode("utf-8", "replace"))

    def start(self, node: ast.AST) -> Pos:
        return node.lineno, self.char_col(node.lineno, node.col_offset)

    def end(self, node: ast.AST) -> Pos:
        return node.end_lineno, self.char_col(node.end_lineno, node.end_col_offset)

    def segment(self, node: ast.AST) -> str:
        return ast.get_source_segment(self.text, node) or ""

    def indent(self, line: int) -> str:
        raw = self.lines[line - 1]
        return raw[:len(raw) - len(raw.lstrip())]

    def names_in_use(self) -> Set[str]:
        return {t.string for t in self.tokens if t.type == tokenize.NAME}


def apply(text: str, edits: Sequence[Edit], lines: Iterable[int]) -> Rewritten:
    """The text with `edits` applied (none may overlap), and where each of `lines` went: a line moves by the
    newlines added or removed by the edits that start at or before its first non-blank column."""
    rows = text.splitlines(keepends=True)
    offsets = [0]
    for row in rows:
        offsets.append(offsets[-1] + len(row))

    def at(pos: Pos) -> int:
        return offsets[pos[0] - 1] + pos[1] if pos[0] - 1 < len(rows) else len(text)

    ordered = sorted(edits, key=lambda e: at(e.start))
    for a, b in zip(ordered, ordered[1:]):
        if at(a.end) > at(b.start):
            raise ValueError("overlapping edits")
    out, last = [], 0
    for e in ordered:
        out.append(text[last:at(e.start)])
        out.append(e.text)
        last = at(e.end)
    out.append(text[last:])

    def moved(line: int) -> int:
        raw = rows[line - 1] if line - 1 < len(rows) else ""
        first = (line, len(raw) - len(raw.lstrip()))
        delta = 0
        for e in ordered:
            if e.start <= first:
                delta += e.text.count("\n") - text[at(e.start):at(e.end)].count("\n")
        return line + delta

    return Rewritten("".join(out), {line: moved(line) for line in lines})


def _token_edits(src: Source, choose: Callable[[tokenize.TokenInfo, Optional[tokenize.TokenInfo]], Optional[str]]) -> List[Edit]:
    edits, previous = [], None
    for tok in src.tokens:
        new = choose(tok, previous)
        if new is not None and new != tok.string:
            edits.append(Edit(tok.start, tok.end, new))
        if tok.type not in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
            previous = tok
    return edits


def _import_lines(src: Source) -> Set[int]:
    lines: Set[int] = set()
    for node in ast.walk(src.tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            lines.update(range(node.lineno, node.end_lineno + 1))
    return lines


def _fresh(src: Source, candidates: Iterable[str]) -> str:
    used = src.names_in_use()
    return next(c for c in candidates if c not in used)


# --- rewrites ------------------------------------------------------------------------------------------


def torch_alias(text: str, lines: Set[int]) -> Optional[Rewritten]:
    """`import torch` -> `import torch as T`, and every use of the name `torch` follows."""
    src = Source(text)
    plain = [n for n in src.tree.body if isinstance(n, ast.Import)
             and any(a.name == "torch" and a.asname is None for a in n.names)]
    if not plain:
        return None
    alias = _fresh(src, ("T", "th", "pt", "torch_"))
    imports = _import_lines(src)
    edits = [Edit(src.start(plain[0]), src.end(plain[0]), f"import torch as {alias}")]
    for extra in plain[1:]:
        edits.append(Edit(src.start(extra), src.end(extra), "pass"))
    edits += _token_edits(src, lambda tok, prev: alias if tok.type == tokenize.NAME and tok.string == "torch"
                          and tok.start[0] not in imports and not (prev and prev.string == ".") else None)
    return apply(text, edits, lines)


def _bound_names(src: Source) -> Set[str]:
    """Names a rename may change: parameters and variables, not imports, functions, classes, class-level
    attributes, dunders or builtins."""
    bound, fixed = set(), set(dir(builtins)) | set(keyword.kwlist) | {"self", "cls", "_"}
    for node in ast.walk(src.tree):
        if isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            if isinstance(getattr(node, "parent", None), ast.ClassDef) or \
                    isinstance(getattr(getattr(node, "parent", None), "parent", None), ast.ClassDef):
                fixed.add(node.id)  # a class attribute, read as obj.name
            else:
                bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            fixed.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            fixed.update((a.asname or a.name).split(".")[0] for a in node.names)
    for node in ast.walk(src.tree):  # names read as attributes or keywords of other code stay
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and \
                isinstance(getattr(node, "parent", None), ast.ClassDef):
            fixed.add(node.target.id)
    return {n for n in bound - fixed if not (n.startswith("__") and n.endswith("__"))}


def _own_callables(src: Source) -> Set[str]:
    return {n.name for n in ast.walk(src.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


def _renamed(text: str, lines: Set[int], name_for: Callable[[str, int], str]) -> Optional[Rewritten]:
    src = Source(text)
    names = sorted(_bound_names(src))
    if not names:
        return None
    mapping = {n: name_for(n, i) for i, n in enumerate(names)}
    used = src.names_in_use() - set(names)
    if any(new in used for new in mapping.values()):
        return None
    own = _own_callables(src)
    skip_at: Set[Pos] = set()  # keywords of calls to other code (torch's `dim=`, `index=`) keep their names
    for node in ast.walk(src.tree):
        if isinstance(node, ast.Call):
            func = node.func
            callee = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            skip_at.update(src.start(kw) for kw in node.keywords if kw.arg in mapping and callee not in own)
    docstrings = _docstring_positions(src)
    word = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")

    def choose(tok, prev):
        if tok.type == tokenize.NAME and tok.string in mapping and not (prev and prev.string == "."):
            if tok.start in skip_at:
                return None
            return mapping[tok.string]
        if tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING and tok.start in docstrings):
            return word.sub(lambda m: mapping[m.group(1)], tok.string)
        return None

    return apply(text, _token_edits(src, choose), lines)


def _docstring_positions(src: Source) -> Set[Pos]:
    found = set()
    for node in ast.walk(src.tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(src.start(first.value))
    return found


def opaque_names(text: str, lines: Set[int]) -> Optional[Rewritten]:
    """Every parameter and variable renamed to `v1`, `v2`, ... (in comments and docstrings too)."""
    return _renamed(text, lines, lambda name, i: f"v{i + 1}")


def meaningful_names(text: str, lines: Set[int]) -> Optional[Rewritten]:
    """Every parameter and variable renamed with a prefix (`logits` -> `my_logits`): the words stay."""
    return _renamed(text, lines, lambda name, i: f"my_{name.lstrip('_')}")


def _main_guard(src: Source) -> Optional[ast.If]:
    for node in src.tree.body:
        if isinstance(node, ast.If) and "__name__" in src.segment(node.test) and "__main__" in src.segment(node.test):
            return node
    return None


def driver_in_main(text: str, lines: Set[int]) -> Optional[Rewritten]:
    """The `if __name__ == "__main__":` body becomes a `main()` function that the guard calls."""
    src = Source(text)
    guard = _main_guard(src)
    if guard is None or guard.orelse:
        return None
    name = _fresh(src, ("main", "run_main", "_main"))
    head_end = (guard.body[0].lineno, 0)
    edits = [Edit((guard.lineno, 0), head_end, f"def {name}():\n"),
             Edit((len(src.lines) + 1, 0), (len(src.lines) + 1, 0),
                  ("" if text.endswith("\n") else "\n") + f"\n\nif __name__ == \"__main__\":\n    {name}()\n")]
    return apply(text, edits, lines)


def driver_unguarded(text: str, lines: Set[int]) -> Optional[Rewritten]:
    """The `if __name__ == "__main__":` body runs at module level, without the guard."""
    src = Source(text)
    guard = _main_guard(src)
    if guard is None or guard.orelse:
        return None
    width = len(src.indent(guard.body[0].lineno))
    edits = [Edit((guard.lineno, 0), (guard.body[0].lineno, 0), "\n" * (guard.body[0].lineno - guard.lineno))]
    for line in range(guard.body[0].lineno, guard.end_lineno + 1):
        raw = src.lines[line - 1]
        cut = min(width, len(raw) - len(raw.lstrip(" ")))
        if cut:
            edits.append(Edit((line, 0), (line, cut), ""))
    return apply(text, edits, lines)


def _family_calls(src: Source, lines: Set[int]) -> List[Tuple[ast.Call, str, bool]]:
    """(call, op, is the function form) of the family calls that start on `lines`."""
    found = []
    for node in ast.walk(src.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in INDEX_ARG \
                and (node.lineno in lines or node.func.end_lineno in lines):
            function_form = isinstance(node.func.value, ast.Name) and node.func.value.id == "torch"
            found.append((node, node.func.attr, function_form))
    return found


def _index_node(call: ast.Call, op: str, function_form: bool) -> Optional[ast.expr]:
    position = INDEX_ARG[op] + (1 if function_form else 0)
    for kw in call.keywords:
        if kw.arg in ("index", "indices"):
            return kw.value
    return call.args[position] if len(call.args) > position and not isinstance(call.args[position], ast.Starred) else None


def index_binding(text: str, lines: Set[int]) -> Optional[Rewritten]:
    """The index of a faulty call bound to a temporary first (`idx = ...` then `.gather(d, idx)`); an index
    that is already a name bound just before is inlined instead."""
    src = Source(text)
    edits: List[Edit] = []
    for call, op, function_form in _family_calls(src, lines):
        index = _index_node(call, op, function_form)
        if index is None:
            continue
        statement = _statement_of(call)
        if statement is None or _inside_scope_expression(call, statement):
            continue
        if isinstance(index, ast.Name):
            inlined = _inline(src, statement, index)
            if inlined:
                edits += inlined
            continue
        temp = _fresh(src, ("index_t", "idx_t", "index_tmp"))
        first = src.start(statement)
        edits.append(Edit(first, first, f"{temp} = {src.segment(index)}\n{src.indent(statement.lineno)}"))
        edits.append(Edit(src.start(index), src.end(index), temp))
        break  # one binding per program keeps the edits apart
    return apply(text, edits, lines) if edits else None


def _statement_of(node: ast.AST) -> Optional[ast.stmt]:
    while node is not None and not isinstance(node, ast.stmt):
        node = getattr(node, "parent", None)
    if isinstance(node, (ast.If, ast.For, ast.While, ast.With, ast.FunctionDef, ast.ClassDef, ast.Try)):
        return None  # the call is in a compound statement's header
    return node


def _inside_scope_expression(node: ast.AST, statement: ast.stmt) -> bool:
    while node is not statement:
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return True
        node = node.parent  # type: ignore[attr-defined]
    return False


def _inline(src: Source, statement: ast.stmt, index: ast.Name) -> Optional[List[Edit]]:
    """`idx = expr` immediately before the statement, read only there: the read becomes `(expr)`."""
    body = getattr(statement.parent, "body", None)  # type: ignore[attr-defined]
    if not body or statement not in body or body.index(statement) == 0:
        return None
    before = body[body.index(statement) - 1]
    if not (isinstance(before, ast.Assign) and len(before.targets) == 1 and isinstance(before.targets[0], ast.Name)
            and before.targets[0].id == index.id and before.lineno == before.end_lineno):
        return None
    reads = [n for n in ast.walk(statement.parent) if isinstance(n, ast.Name) and n.id == index.id]  # type: ignore[attr-defined]
    if len(reads) != 2:  # the binding and this read
        return None
    return [Edit((before.lineno, 0), (before.lineno + 1, 0), "\n"),
            Edit(src.start(index), src.end(index), f"({src.segment(before.value)})")]


def call_form(text: str, lines: Set[int]) -> Optional[Rewritten]:
    """`x.gather(d, i)` <-> `torch.gather(x, d, i)` at the faulty calls (ops that have both forms)."""
    src = Source(text)
    edits: List[Edit] = []
    for call, op, function_form in _family_calls(src, lines):
        if op.endswith("_") or any(isinstance(a, ast.Starred) for a in call.args) or \
                any(k.arg is None for k in call.keywords):
            continue
        rest = [src.segment(a) for a in call.args] + [f"{k.arg}={src.segment(k.value)}" for k in call.keywords]
        if function_form:
            if not call.args:
                continue
            receiver = src.segment(call.args[0])
            if not isinstance(call.args[0], (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
                receiver = f"({receiver})"
            new = f"{receiver}.{op}({', '.join(rest[1:])})"
        else:
            if "torch" not in src.names_in_use():
                continue
            new = f"torch.{op}({', '.join([src.segment(call.func.value)] + rest)})"
        edits.append(Edit(src.start(call), src.end(call), new))
        break
    return apply(text, edits, lines) if edits else None


def keyword_arguments(text: str, lines: Set[int]) -> Optional[Rewritten]:
    """The faulty calls' positional arguments become keywords (`gather(1, i)` -> `gather(dim=1, index=i)`),
    or keywords positional where they were all keywords."""
    src = Source(text)
    edits: List[Edit] = []
    for call, op, function_form in _family_calls(src, lines):
        params = METHOD_PARAMS.get(op)
        if params is None or any(isinstance(a, ast.Starred) for a in call.args):
            continue
        args = call.args[1:] if function_form else call.args
        head = [src.segment(call.args[0])] if function_form and call.args else []
        if function_form and not call.args:
            continue
        if args and len(args) <= len(params):
            parts = head + [f"{p}={src.segment(a)}" for p, a in zip(params, args)] + \
                [f"{k.arg}={src.segment(k.value)}" for k in call.keywords]
        elif not args and call.keywords and all(k.arg in params for k in call.keywords):
            given = {k.arg: k.value for k in call.keywords}
            ordered = [p for p in params if p in given]
            if ordered != list(params[:len(ordered)]):
                continue
            parts = head + [src.segment(given[p]) for p in ordered]
        else:
            continue
        func = src.segment(call.func)
        edits.append(Edit(src.start(call), src.end(call), f"{func}({', '.join(parts)})"))
        break
    return apply(text, edits, lines) if edits else None


_HELPER = "\n\ndef describe_value(value):\n    \"\"\"A name for a value in log lines.\"\"\"\n    return type(value).__name__\n"


def unrelated_helper(text: str, lines: Set[int]) -> Optional[Rewritten]:
    """A helper that nothing tensor-related calls, defined after the imports, and a print at the end."""
    src = Source(text)
    imports = [n for n in src.tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    if not imports:
        return None
    after = max(n.end_lineno for n in imports) + 1
    end = len(src.lines) + 1
    edits = [Edit((after, 0), (after, 0), _HELPER.lstrip("\n") + "\n\n"),
             Edit((end, 0), (end, 0), ("" if text.endswith("\n") else "\n") + 'print("log:", describe_value(None))\n')]
    return apply(text, edits, lines)


_SIZE_CALLS = {"randn", "rand", "zeros", "ones", "empty", "randint", "full", "Linear", "Embedding", "arange",
               "randperm", "tensor_size", "Conv1d", "Conv2d", "LSTM", "GRU", "EmbeddingBag"}


def literal_sizes(text: str, lines: Set[int]) -> Optional[Rewritten]:
    """Sizes written as literals (>= 4) in constructors and size settings changed consistently (n -> n + 3),
    wherever that number is written in code and in comments."""
    src = Source(text)
    sizes: Set[int] = set()

    def collect(node):
        for sub in ast.walk(node):
            if isinstance(sub, ast.Constant) and type(sub.value) is int and sub.value >= 4:
                sizes.add(sub.value)

    for node in ast.walk(src.tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in _SIZE_CALLS:
                for a in node.args:
                    collect(a)
                for k in node.keywords:
                    if k.arg in ("size", "num_embeddings", "embedding_dim", "in_features", "out_features", "high"):
                        collect(k.value)
        elif isinstance(node, ast.Assign) and isinstance(node.value, (ast.Constant, ast.Tuple)) and \
                all(isinstance(t, (ast.Name, ast.Tuple)) for t in node.targets):
            collect(node.value)
    # a size a written list has (`torch.tensor([[0, 1, 2, 3], ...])`: 4 edges) cannot change with the others
    # unless the list is rewritten too: changing the 4 of `randn(4, 3)` beside it would pair 7 rows with 4 edges
    sizes -= {len(node.elts) for node in ast.walk(src.tree) if isinstance(node, ast.List)
              and node.elts and all(isinstance(e, (ast.Constant, ast.List, ast.Tuple, ast.UnaryOp)) for e in node.elts)
              and not all(isinstance(e, ast.Constant) and isinstance(e.value, int) and e.value in sizes
                          for e in node.elts)}
    if not sizes:
        return None
    mapping = {v: v + 3 for v in sizes}
    number = re.compile(r"(?<![\w.])(\d+)(?![\w.])")

    def choose(tok, prev):
        if tok.type == tokenize.NUMBER and tok.string.isdigit() and int(tok.string) in mapping:
            return str(mapping[int(tok.string)])
        if tok.type == tokenize.COMMENT:
            return number.sub(lambda m: str(mapping.get(int(m.group(1)), m.group(1))), tok.string)
        return None

    return apply(text, _token_edits(src, choose), lines)


def static_method(text: str, lines: Set[int]) -> Optional[Rewritten]:
    """The module-level function holding a faulty line becomes a @staticmethod of a class; its callers call
    it through the class."""
    src = Source(text)
    for func in src.tree.body:
        if isinstance(func, ast.FunctionDef) and any(func.lineno <= line <= func.end_lineno for line in lines):
            break
    else:
        return None
    holder = _fresh(src, ("Ops", "Helpers", "OpsHolder"))
    top = min([func.lineno] + [d.lineno for d in func.decorator_list])
    edits = [Edit((top, 0), (top, 0), f"class {holder}:\n    @staticmethod\n")]
    for line in range(top, func.end_lineno + 1):
        if src.lines[line - 1].strip():
            edits.append(Edit((line, 0), (line, 0), "    "))
    inside = range(top, func.end_lineno + 1)

    def choose(tok, prev):
        if tok.type == tokenize.NAME and tok.string == func.name and tok.start[0] not in inside and \
                not (prev and prev.string in (".", "def")):
            return f"{holder}.{func.name}"
        return None

    edits += _token_edits(src, choose)
    return apply(text, edits, lines)


_SHAPE_COMMENT = re.compile(r"#\s*([\[(][^\])]*[\])])\s*$")


def comment_above(text: str, lines: Set[int]) -> Optional[Rewritten]:
    """A trailing shape comment on an assignment (`x = f()  # [B, D]`) moves to a line of its own above it,
    naming the tensor (`# x: [B, D]`)."""
    src = Source(text)
    edits: List[Edit] = []
    by_line = {}
    for node in ast.walk(src.tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.lineno == node.end_lineno:
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name) and (not isinstance(node, ast.Assign) or len(node.targets) == 1):
                by_line[node.lineno] = (node, target.id)
    for tok in src.tokens:
        if tok.type == tokenize.COMMENT and tok.start[0] in by_line:
            match = _SHAPE_COMMENT.match(tok.string)
            node, name = by_line[tok.start[0]]
            if match and tok.start[1] > 0 and src.lines[tok.start[0] - 1][:tok.start[1]].strip():
                line_text = src.lines[tok.start[0] - 1]
                code_end = len(line_text[:tok.start[1]].rstrip())
                edits.append(Edit((tok.start[0], code_end), tok.end, ""))
                edits.append(Edit((node.lineno, 0), (node.lineno, 0),
                                  f"{src.indent(node.lineno)}# {name}: {match.group(1)}\n"))
    return apply(text, edits, lines) if edits else None


REWRITES: Dict[str, Callable[[str, Set[int]], Optional[Rewritten]]] = {
    "opaque names": opaque_names,
    "meaningful names": meaningful_names,
    "driver in main()": driver_in_main,
    "driver unguarded": driver_unguarded,
    "index temporary/inlined": index_binding,
    "method/function form": call_form,
    "keyword/positional args": keyword_arguments,
    "import torch as T": torch_alias,
    "unrelated helper + print": unrelated_helper,
    "literal sizes": literal_sizes,
    "@staticmethod": static_method,
    "shape comment above": comment_above,
}
