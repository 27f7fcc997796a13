"""Tokens added to a vocabulary after a lookup table was sized from it (GL011).

A script builds a tokenizer, a model whose embedding has one row per token, then adds tokens
(`tok.add_tokens([...])`, `add_special_tokens`) without `resize_token_embeddings`. The new tokens
get ids from the old size up: the embedding has no row for them and raises 'index out of range in
self' (a device-side assert on CUDA) as soon as one is looked up. Reported where the two sizes part:
at the add when the table was sized first, at the table when it is sized after the add with the old
count.

Evidence needed, all certain in the script's own statements (one block, straight-line):
- the table's rows: a constructor argument that reaches `nn.Embedding(rows, ...)` (or a parameter
  table `torch.randn(rows, ...)`) inside the file's classes, given `len(tok)` (the count at that
  moment) or an integer;
- the vocabulary's count when that integer is used: `len(tok)`, or the length of the literal
  collection the tokenizer was built from (its class keeps one entry per item);
- the growth: an add call with a non-empty literal list of new tokens; or, for a plain collection the
  table was sized with (`nn.Embedding(len(stoi), d)`), `stoi["<unk>"] = len(stoi)` / `itos.append(...)`
  followed by ids read out of it (`stoi[w]`, `stoi.get(w, ...)`);
- a use of the table after the growth (the model is called or handed on), and no resize anywhere in
  the block. Reported at the cause (the add, or the table built with the old count) and where the
  table's class looks ids up in it.
"""
from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Optional, Tuple

from ..contract import ERROR, Violation
from . import script_drivers, tree_walk
from .tree_walk import called_name
from .text_scan import file_test

CODE = "GL011"
_GROW = ("add_tokens", "add_special_tokens")
_RESIZE = "resize"
_SAME_MODULE = ("eval", "train", "to", "cuda", "cpu", "float", "half", "double", "bfloat16", "requires_grad_")
_TABLES = ("Embedding", "EmbeddingBag")
_PARAMETER_TABLES = ("randn", "rand", "zeros", "empty", "ones", "normal")
_BODIES = (ast.stmt, ast.excepthandler, ast.match_case)  # what a statement's bodies hold


@file_test
def spelled_in(text: str) -> bool:
    """A script that adds tokens: substring tests only (the prefilter runs on every file)."""
    return ("add_tokens" in text or "add_special_tokens" in text or (
        "mbedding" in text and ("append(" in text or "] = len(" in text or "setdefault(" in text))) \
        and script_drivers.is_script(text)


def check_module(tree: ast.Module) -> Iterator[Tuple[ast.AST, Violation]]:
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    sized = _SizingArguments(classes)
    resizes = _Resizes()
    for body in _blocks(tree):
        if not any(resizes(stmt) for stmt in body):
            yield from _Block(sized, classes).run(body)


def _blocks(tree: ast.Module) -> Iterator[List[ast.stmt]]:
    """Statement lists a script runs in order: the module body, its `if __name__ == "__main__":`, functions."""
    yield tree.body
    for node in tree_walk.statements(tree):  # guards and defs are statements: ast.walk's order, fewer nodes
        if script_drivers.is_guard(node):
            yield node.body
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.body


class _Resizes:
    """Whether a statement calls a resize (`resize_token_embeddings`) anywhere in it: each statement's own
    expressions are walked once, and a statement holding others asks them (the blocks nest: a method's
    statements are the class's and the module's too)."""

    def __init__(self):
        self._known: Dict[int, bool] = {}

    def __call__(self, stmt: ast.AST) -> bool:
        known = self._known.get(id(stmt))
        if known is None:
            known = self._known[id(stmt)] = self._find(stmt)
        return known

    def _find(self, stmt: ast.AST) -> bool:
        found = False
        for field in stmt._fields:
            value = getattr(stmt, field, None)
            items = value if isinstance(value, list) else [value]
            for item in items:
                if isinstance(item, _BODIES):  # every one asked, so that each is known when its own block is
                    found = self(item) or found
                elif isinstance(item, ast.AST) and not found:
                    found = any(called_name(n) and _RESIZE in called_name(n) for n in tree_walk.all_nodes(item))
        return found


class _SizingArguments:
    """Which constructor argument of a file class sizes an embedding's rows: (position, keyword, key,
    lookups), key being the config entry (`cfg["vocab_size"]`, `cfg.vocab_size`) when the argument is a
    config, lookups the places the class reads that table."""

    def __init__(self, classes: Dict[str, ast.ClassDef]):
        self.classes = classes
        self._memo: Dict[str, List[Tuple[int, str, Optional[str]]]] = {}
        self._reads: Dict[str, Dict[str, List[ast.AST]]] = {}  # class -> its reads of each self.attr

    def of(self, class_name: str, depth: int = 0) -> List[Tuple[int, str, Optional[str]]]:
        if class_name in self._memo:
            return self._memo[class_name]
        self._memo[class_name] = []  # recursion guard
        init = next((n for n in self.classes[class_name].body
                     if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
        if init is None or depth > 3:
            return []
        params = [a.arg for a in init.args.args[1:]]
        found = []
        for node in ast.walk(init):
            if not isinstance(node, ast.Call):
                continue
            name = called_name(node)
            if name in _TABLES or (name in _PARAMETER_TABLES and _inside_parameter(node, init)):
                rows = node.args[0] if node.args else _keyword(node, "num_embeddings")
                ref = _param_ref(rows, params)
                if ref is not None:
                    found.append((params.index(ref[0]), ref[0], ref[1], self._lookups(class_name, init, node)))
            elif name in self.classes and name != class_name:
                inner = self.of(name, depth + 1)
                for position, keyword, key, lookups in inner:  # a config handed down to a submodule
                    given = node.args[position] if position < len(node.args) else _keyword(node, keyword)
                    ref = _param_ref(given, params)
                    if ref is not None and (ref[1] is None or key is None):
                        found.append((params.index(ref[0]), ref[0], key or ref[1], lookups))
        self._memo[class_name] = found
        return found

    def _lookups(self, class_name: str, init, table: ast.Call) -> Tuple[ast.AST, ...]:
        """Where the class's other methods read the table `self.<attr> = ...table...` holds: `self.attr(ids)`,
        `self.attr.index_select(0, ids)`, `self.attr[ids]`, `F.embedding(ids, self.attr)`."""
        attr = _stored_attributes(init).get(id(table))
        if attr is None:
            return ()
        if class_name not in self._reads:
            self._reads[class_name] = _attribute_reads(self.classes[class_name])
        return tuple(self._reads[class_name].get(attr, ()))


def _stored_attributes(init) -> Dict[int, str]:
    """id(node) -> `attr` for each node of the value of the first `self.attr = ...` (in ast.walk's order)
    holding it; one walk of `__init__` for all its tables, kept on its node."""
    found = getattr(init, "_gather_lint_stored_attributes", None)
    if found is None:
        found = init._gather_lint_stored_attributes = {}
        for stmt in ast.walk(init):
            if isinstance(stmt, ast.Assign):
                attr = next((t.attr for t in stmt.targets if isinstance(t, ast.Attribute) and _is_self(t.value)), None)
                if attr is not None:
                    for node in ast.walk(stmt.value):
                        found.setdefault(id(node), attr)
    return found


def _attribute_reads(cls: ast.ClassDef) -> Dict[str, List[ast.AST]]:
    """attr -> the reads of `self.attr` as a table in the methods other than `__init__`, in order."""
    reads: Dict[str, List[ast.AST]] = {}
    for method in cls.body:
        if not isinstance(method, ast.FunctionDef) or method.name == "__init__":
            continue
        for node in ast.walk(method):
            attrs = []
            if isinstance(node, ast.Call):
                func = node.func
                if _is_self_attr(func, getattr(func, "attr", None)):
                    attrs.append(func.attr)
                if isinstance(func, ast.Attribute) and func.attr in ("index_select", "embedding") \
                        and _is_self_attr(func.value, getattr(func.value, "attr", None)):
                    attrs.append(func.value.attr)
                if called_name(node) == "embedding" and node.args[1:2] and _is_self_attr(node.args[1], getattr(node.args[1], "attr", None)):
                    attrs.append(node.args[1].attr)
            elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) \
                    and _is_self_attr(node.value, getattr(node.value, "attr", None)):
                attrs.append(node.value.attr)
            for attr in dict.fromkeys(attrs):  # a node matching one attr two ways is one read
                reads.setdefault(attr, []).append(node)
    return reads


def _is_self(node) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _is_self_attr(node, attr: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == attr and _is_self(node.value)


def _inside_parameter(call: ast.Call, init) -> bool:
    """`nn.Parameter(torch.randn(rows, dim) * 0.02)`: a table held as a parameter."""
    inside = getattr(init, "_gather_lint_in_parameters", None)
    if inside is None:  # one walk of `__init__` for all its calls
        inside = init._gather_lint_in_parameters = {id(n) for node in ast.walk(init)
                                                     if isinstance(node, ast.Call) and called_name(node) == "Parameter"
                                                     for n in ast.walk(node)}
    return id(call) in inside


def _param_ref(node, params) -> Optional[Tuple[str, Optional[str]]]:
    """(parameter, config key) for `p`, `p["key"]` or `p.key`."""
    if isinstance(node, ast.Name) and node.id in params:
        return node.id, None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in params \
            and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.value.id, node.slice.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in params:
        return node.value.id, node.attr
    return None


class _Block:
    """One straight-line run through a block's statements."""

    def __init__(self, sized: _SizingArguments, classes):
        self.sized = sized
        self.classes = classes
        self.ints: Dict[str, int] = {}
        self.lengths: Dict[str, int] = {}  # collections of known length
        self.dicts: Dict[str, Dict[str, int]] = {}
        self.vocab: Dict[str, Optional[int]] = {}  # tokenizers: their count when known
        self.grown: Dict[str, Tuple[int, int]] = {}  # tokenizer -> (line of the first add, tokens added)
        # tables: holder name -> (tokenizer, count it was sized with or None for len(tok) then, line, lookups)
        self.tables: Dict[str, Tuple[str, Optional[int], int, tuple]] = {}
        self.pending: List[Tuple[str, int, ast.AST, Violation]] = []  # (holder, used after line, node, violation)
        self.found: List[Tuple[ast.AST, Violation]] = []
        # a collection grown by append / `[key] = len(...)`: its new entry must be read after the growth
        self.needs_read: Dict[int, Tuple[str, int]] = {}
        self._plain = None  # (name, line) while a plain growth is being reported

    def run(self, body) -> Iterator[Tuple[ast.AST, Violation]]:
        """The block's findings; check_module runs no block that resizes."""
        for stmt in body:
            self._uses(stmt)
            self._statement(stmt)
        for at, violation in self.found:
            read = self.needs_read.get(id(violation))
            if read is None or _read_after(body, *read):
                yield at, violation

    def _uses(self, stmt) -> None:
        """A pending mismatch counts once its table is used: the model is called after it."""
        if not self.pending:  # most statements come before any mismatch: nothing to look for
            return
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call):
                root = _root(node.func)
                passed = {a.id for a in list(node.args) + [k.value for k in node.keywords] if isinstance(a, ast.Name)} \
                    if called_name(node) not in _NOT_USES else set()
                for entry in list(self.pending):
                    holder, after, at, violation = entry
                    # called itself (`model(ids)`, `model.generate(...)`) or handed on (`train(model, data)`)
                    if (root == holder or holder in passed) and node.lineno > after:
                        self.found.append((at, violation))
                        self.pending.remove(entry)

    def _statement(self, stmt) -> None:
        if isinstance(stmt, (ast.Expr, ast.Assign)) and isinstance(stmt.value, ast.Call) and called_name(stmt.value) in _GROW:
            self._grow(stmt.value)  # `tok.add_tokens([...])`, `added = tok.add_tokens([...])`
            return
        plain = _plain_growth(stmt)
        if plain is not None and any(tok == plain[0] for tok, *_ in self.tables.values()):
            self._plain = (plain[0], stmt.lineno)
            self._grown_by(plain[0], plain[1], stmt)
            self._plain = None
            return
        if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
            return
        target, value = stmt.targets[0], stmt.value
        if isinstance(target, ast.Name):
            name = target.id
            for table in (self.ints, self.lengths, self.dicts, self.vocab, self.tables):
                table.pop(name, None)
            number = self._int(value)
            if number is not None:
                self.ints[name] = number
            length = self._length(value)
            if length is not None:
                self.lengths[name] = length
            if isinstance(value, ast.Dict):
                self.dicts[name] = {k.value: self._int(v) for k, v in zip(value.keys, value.values)
                                    if isinstance(k, ast.Constant) and self._int(v) is not None}
            elif isinstance(value, ast.Call) and value.keywords and not value.args and called_name(value) not in self.vocab:
                # a config built from keywords: `Config(vocab_size=20, hidden=16)`, `dict(...)`, `SimpleNamespace(...)`
                self.dicts[name] = {k.arg: self._int(k.value) for k in value.keywords
                                    if k.arg and self._int(k.value) is not None}
            if isinstance(value, ast.Call):
                self._built(name, value)
        elif isinstance(target, (ast.Subscript, ast.Attribute)) and isinstance(target.value, ast.Name) \
                and target.value.id in self.dicts:
            key = target.attr if isinstance(target, ast.Attribute) else (
                target.slice.value if isinstance(target.slice, ast.Constant) else None)
            if isinstance(key, str):
                number = self._int(value)
                if number is None:
                    self.dicts[target.value.id].pop(key, None)
                else:
                    self.dicts[target.value.id][key] = number

    def _grow(self, call: ast.Call) -> None:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in _GROW and isinstance(func.value, ast.Name)):
            return
        added = self._new_tokens(call)
        if added:
            self._grown_by(func.value.id, added, call)

    def _grown_by(self, name: str, added: int, call) -> None:
        if name in self.vocab and self.vocab[name] is not None:
            self.vocab[name] += added
        else:
            self.vocab[name] = None
        line, total = self.grown.get(name, (call.lineno, 0))
        self.grown[name] = (line, total + added)
        for holder, (tok, count, at, lookups) in self.tables.items():
            if tok == name:
                self._mismatch(holder, call, tok, count, at, lookups)

    def _new_tokens(self, call: ast.Call) -> int:
        """How many tokens a literal list (or a dict of lists, HF's special tokens) adds."""
        if not call.args:
            return 0
        arg = call.args[0]
        if isinstance(arg, ast.Dict):
            return sum(len(v.elts) if isinstance(v, (ast.List, ast.Tuple)) else 1 for v in arg.values)
        return self._length(arg) or 0  # a literal list, or a name bound to one

    def _built(self, name: str, call: ast.Call) -> None:
        while isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Call) \
                and call.func.attr in _SAME_MODULE:
            call = call.func.value  # Model(...).eval()
        cls = called_name(call)
        if cls in self.classes and self._keeps_items(cls) and call.args and self._length(call.args[0]) is not None:
            self.vocab[name] = self._length(call.args[0])  # Tokenizer(words): one entry per word
            return
        # the tables it builds, nested ones included: `nn.Sequential(nn.Embedding(len(vocab), d), ...)`
        parts = [n for n in ast.walk(call) if isinstance(n, ast.Call) and (called_name(n) in self.classes or called_name(n) in _TABLES)]
        for part in parts:
            for tok, count, lookups in self._table_sizes(called_name(part), part):
                if tok is None:
                    continue
                self.tables[name] = (tok, count, call.lineno, lookups)
                grown = self.grown.get(tok)
                if grown is not None and count is not None and self.vocab.get(tok) is not None and count < self.vocab[tok]:
                    self._mismatch(name, call, tok, count, grown[0], lookups, after=True)

    def _table_sizes(self, cls: str, call: ast.Call):
        """(tokenizer, count then) for each argument that sizes a table: `len(tok)` or an int equal to a
        known vocabulary's count."""
        spots = [(0, "num_embeddings", None, ())] if cls in _TABLES else self.sized.of(cls)
        for position, keyword, key, lookups in spots:
            for tok, count in self._sizes_given(call, position, keyword, key):
                yield tok, count, lookups

    def _sizes_given(self, call: ast.Call, position: int, keyword: str, key: Optional[str]):
        """(tokenizer, count then) for the argument at this spot: `len(tok)` or an int equal to a known
        vocabulary's count."""
        given = call.args[position] if position < len(call.args) else _keyword(call, keyword)
        if given is None:
            return
        if key is not None:
            if isinstance(given, ast.Name) and key in self.dicts.get(given.id, {}):
                yield self._matching(self.dicts[given.id][key])
            return
        tok = _len_of(given)
        if tok is not None:
            yield tok, self.vocab.setdefault(tok, None)  # its count then, whether known or not
            return
        number = self._int(given)
        if number is not None:
            yield self._matching(number)

    def _matching(self, number: int):
        """The tokenizer whose count (before its adds) is this number: the table was sized for it."""
        for tok, count in self.vocab.items():
            before = count - self.grown[tok][1] if tok in self.grown and count is not None else count
            if before == number:
                return tok, number
        return None, None

    def _mismatch(self, holder: str, node, tok: str, count: Optional[int], at: int, lookups=(),
                  after: bool = False) -> None:
        now = self.vocab.get(tok)
        rows = f"{count} rows" if count is not None else f"len({tok}) rows (its count then)"
        if after:
            message = (f"`{holder}` is built with an embedding of {count} rows, the count of `{tok}` before the "
                       f"tokens added at line {at}; `{tok}` now has {now} entries, so ids {count} to {now - 1} have "
                       f"no row and raise 'index out of range in self' when looked up (a device-side assert on "
                       f"CUDA); size the table with len({tok})")
        else:
            first = str(count) if count is not None else f"the old len({tok})"
            message = (f"tokens added to `{tok}` after `{holder}` was built at line {at} with {rows} in its "
                       f"embedding: their ids (from {first} up) have no row and raise 'index out of range in "
                       f"self' when looked up (a device-side assert on CUDA); add the tokens before building "
                       f"`{holder}`, or resize its embedding to len({tok}) after adding "
                       f"(`resize_token_embeddings` on a transformers model)")
        self._pend(holder, node.lineno, node, Violation(CODE, ERROR, message))
        rows = f"{count} rows" if count is not None else f"len({tok}) rows as of line {at}"
        grew = at if after else node.lineno
        for lookup in lookups:  # where the new ids raise: the table's reads in its class
            self._pend(holder, node.lineno, lookup, Violation(
                CODE, ERROR,
                f"`{_segment(lookup)}` looks ids up in a table of {rows} (`{holder}`, built at line "
                f"{node.lineno if after else at}), but tokens were added to `{tok}` at line {grew}: their ids "
                f"raise 'index out of range in self' here (a device-side assert on CUDA); size the table "
                f"with the final len({tok})"))

    def _pend(self, holder: str, after: int, node, violation: Violation) -> None:
        self.pending.append((holder, after, node, violation))
        if self._plain is not None:
            self.needs_read[id(violation)] = self._plain

    def _keeps_items(self, cls: str) -> bool:
        """A class whose __init__ takes one collection and keeps one entry per item (`dict(vocab)`,
        `{w: i for i, w in enumerate(words)}`) and nothing else: its count is the collection's length."""
        init = next((n for n in self.classes[cls].body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
        if init is None or len(init.args.args) != 2 or len(init.body) != 1 or not isinstance(init.body[0], ast.Assign):
            return False
        param, value = init.args.args[1].arg, init.body[0].value
        if isinstance(value, ast.Call) and called_name(value) == "dict" and len(value.args) == 1:
            return isinstance(value.args[0], ast.Name) and value.args[0].id == param
        if isinstance(value, ast.DictComp) and len(value.generators) == 1 and not value.generators[0].ifs:
            it = value.generators[0].iter
            if isinstance(it, ast.Call) and called_name(it) == "enumerate" and it.args:
                it = it.args[0]
            return isinstance(it, ast.Name) and it.id == param
        return False

    def _int(self, node) -> Optional[int]:
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name):
            return self.ints.get(node.id)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Constant):
            return self.dicts.get(node.value.id, {}).get(node.slice.value)  # config["vocab_size"]
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            return self.dicts.get(node.value.id, {}).get(node.attr)  # config.vocab_size
        if isinstance(node, ast.Call) and called_name(node) == "len" and len(node.args) == 1:
            return self._length(node.args[0])
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            left, right = self._int(node.left), self._int(node.right)
            if left is not None and right is not None:
                return left + right if isinstance(node.op, ast.Add) else left - right
        return None

    def _length(self, node) -> Optional[int]:
        """Length of a literal collection, a comprehension over range(n), or a sum of them."""
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and not any(isinstance(e, ast.Starred) for e in node.elts):
            return len(node.elts)
        if isinstance(node, ast.Dict) and None not in node.keys:
            return len(node.keys)
        if isinstance(node, (ast.ListComp, ast.DictComp)) and len(node.generators) == 1 and not node.generators[0].ifs:
            it = node.generators[0].iter
            if isinstance(it, ast.Call) and called_name(it) == "range" and len(it.args) == 1:
                return self._int(it.args[0])
            return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self._length(node.left), self._length(node.right)
            return left + right if left is not None and right is not None else None
        if isinstance(node, ast.Name):
            return self.lengths.get(node.id)
        return None


_NOT_USES = ("print", "len", "isinstance", "type", "id", "repr", "str", "getattr", "hasattr", "setattr")
_COUNT_ATTRIBUTES = ("vocab_size", "n_vocab", "n_words", "num_tokens", "n_tokens")


_PLAIN_GROW = {"append": 1, "insert": 1, "add": 1, "setdefault": 1}


def _plain_growth(stmt) -> Optional[Tuple[str, int]]:
    """(collection, entries added) for `itos.append("<unk>")`, `vocab.extend([...])` (a literal list), or
    `stoi["<unk>"] = len(stoi)`."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Attribute) \
            and isinstance(stmt.value.func.value, ast.Name):
        method, name = stmt.value.func.attr, stmt.value.func.value.id
        if method in _PLAIN_GROW:
            return name, 1
        if method == "extend" and stmt.value.args and isinstance(stmt.value.args[0], (ast.List, ast.Tuple)):
            return name, len(stmt.value.args[0].elts)
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Subscript):
        target = stmt.targets[0]
        if isinstance(target.value, ast.Name) and _len_of(stmt.value) == target.value.id:
            return target.value.id, 1
    return None


def _read_after(body, name: str, line: int) -> bool:
    """Ids are read out of the collection after `line`: `stoi[w]`, `stoi.get(w)`, `itos.index(w)`, `tok(...)`."""
    for stmt in body:
        for node in ast.walk(stmt):
            if getattr(node, "lineno", 0) <= line:
                continue
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name \
                    and isinstance(node.ctx, ast.Load):
                return True
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                    and node.func.value.id == name and node.func.attr in ("get", "index", "encode", "lookup"):
                return True
    return False


def _len_of(node) -> Optional[str]:
    """`tok` for `len(tok)`, `len(tok.vocab)` or `tok.vocab_size`: the vocabulary's count right now."""
    if isinstance(node, ast.Call) and called_name(node) == "len" and len(node.args) == 1:
        arg = node.args[0]
        if isinstance(arg, ast.Attribute):
            arg = arg.value
        return arg.id if isinstance(arg, ast.Name) else None
    if isinstance(node, ast.Attribute) and node.attr in _COUNT_ATTRIBUTES and isinstance(node.value, ast.Name):
        return node.value.id
    return None


def _segment(node) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."


def _keyword(call: ast.Call, name: str):
    return next((k.value for k in call.keywords if k.arg == name), None)


def _root(node) -> Optional[str]:
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None
