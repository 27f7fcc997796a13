"""GL003 by the rows' history: a scatter or index op writes rows made from a cut of its own index.

`kept = idx[:capacity]; out.index_add_(0, idx, expert(x[kept]))` runs the expert on the kept entries
but adds its rows back at every entry of `idx`; `used = codes.unique(); book.scatter_(0,
codes[:, None].expand(-1, D), means[used])` writes one row per distinct code at one position per
code occurrence. The index and the src then differ in length whenever the cut leaves something out
(the only reason to write it), and torch raises. Shapes alone cannot see it: both lengths are
counts only the data decides. So the rows are followed by syntax instead: each side's rows are
traced back through the ops that keep dim 0 (unsqueeze, expand, casts, elementwise maths, lookups
by an integer index, row-wise layers) to the tensor they enumerate, and a cut (`t[a:b]`,
`t.unique()`) on the src's way that starts from the index's own tensor is the finding.

A name is followed only when the function binds it once; anything the trace does not know stops it.
"""
from __future__ import annotations

import ast
import re
from typing import Optional, Tuple

from ..dims import Shape, Sym, normalize_dim
from ..ops import INDEX, SCATTER
from ..rules import gl003_index_too_large as rule
from . import modules
from .normalised_axis import _bindings, literal_int
from .values import TensorVal

_MAX_STEPS = 40  # a trace longer than this is given up (each step is a dict lookup or two)

# shape-keeping methods (the rows are the receiver's whatever their arguments)
_SAME_SHAPE = frozenset({
    "long", "int", "float", "half", "double", "bfloat16", "to", "type", "type_as", "clone", "detach",
    "contiguous", "cpu", "cuda", "relu", "sigmoid", "tanh", "exp", "log", "abs", "neg", "sqrt", "rsqrt",
    "softmax", "log_softmax", "cumsum", "clamp", "clamp_min", "clamp_max", "gelu", "silu", "normalize",
    "dropout", "sign", "square", "pow", "masked_fill", "nan_to_num",
})
_ARITH = frozenset({"add", "sub", "mul", "div", "true_divide", "multiply", "divide", "subtract"})
# a slice of dim 0 with a bound, `[:n]`, `[k:]`, `[a:b, 0]`; not `[:, None]` or `[..., :n]`
_CUT_SLICE = re.compile(r"\[\s*(?:[^\s\[\],:][^\[\],:\n]*:|:\s*[^\s,\]:])")
_MODULES = frozenset({"torch", "F", "functional", "nn"})  # torch.relu(t), F.normalize(t), nn.functional.gelu(t)

# ("name", id) | ("attr", text) | ("cut", kind, base token, the cut's text, the cut tensor's text, the name
# the cut was bound to or None)
Token = Tuple


def check(interp, call: ast.Call, site, bound) -> None:
    """Flag a scatter/index_add_/index_copy_ whose src rows are a cut of the entries of its index."""
    family = site.op.family
    payload = bound.get("src") if family == SCATTER else bound.get("source")
    index = bound.get("index")
    if payload is None or index is None or interp.function is None:
        return  # (family calls with a src are rare enough to trace without a text gate)
    if family == INDEX and not _along_rows(site):
        return  # the index counts the slices of another dim: its entries are not the src's rows
    if family not in (SCATTER, INDEX) or rule.check(site) is not None:
        return  # GL003 from the shapes already says it, with the sizes
    index_rows = _Tracer(interp, call.lineno).rows(index)
    src_rows = _Tracer(interp, call.lineno, index_rows).rows(payload)  # the index holds positions, whatever the env knows
    if index_rows is None or src_rows is None:
        return
    cut = _cut_from(src_rows, index_rows)
    shrunk = "src"
    if cut is None and family == INDEX:
        cut, shrunk = _cut_from(index_rows, src_rows), "index"  # index_add_ wants equal counts both ways
    if cut is not None:
        segment = interp.source.segment
        interp.flag(call, rule.check_cut_source(segment(payload), _named(cut), segment(index), cut[4], cut[1],
                                                site.op.spelled, family == SCATTER, shrunk), None)


def check_write(interp, target: ast.Subscript, value_node, augmented: str = "") -> None:
    """`out[idx] = v` / `out[idx, :] += v`: v must broadcast to one row per entry of idx; flag v's rows
    made from a cut of idx's own entries (or idx a cut of the entries v has rows for)."""
    if value_node is None or interp.function is None or not _cuts_spelled(interp):
        return
    items = list(target.slice.elts) if isinstance(target.slice, ast.Tuple) else [target.slice]
    if not items:
        return  # `x[()] = v`: the whole (0-d) tensor, no rows
    key = items[0]
    if isinstance(key, (ast.Slice, ast.Constant, ast.UnaryOp)) or not all(_whole(item) for item in items[1:]):
        return
    tracer = _Tracer(interp, target.lineno)
    if not tracer.known_tensor(key):
        return  # a mask selects one row per True; a dict or list is written by key (asked first: it is cheap)
    index_rows = tracer.rows(key)
    if index_rows is None:
        return
    value_rows = _Tracer(interp, target.lineno, index_rows).rows(value_node)
    if value_rows is None:
        return
    cut, shrunk = _cut_from(value_rows, index_rows), "value"
    if cut is None:
        cut, shrunk = _cut_from(index_rows, value_rows), "index"
    if cut is not None:
        segment = interp.source.segment
        interp.flag(target, rule.check_cut_write(segment(target), segment(value_node), _named(cut), segment(key),
                                                 cut[4], cut[1], shrunk, augmented), None)


def _named(cut: Token) -> str:
    return f"`{cut[5]}` (`{cut[3]}`)" if cut[5] else f"`{cut[3]}`"


def _whole(item) -> bool:
    """`:` or `...` after the index: the write keeps every other dim."""
    return isinstance(item, ast.Slice) and item.lower is None and item.upper is None and item.step is None \
        or isinstance(item, ast.Constant) and item.value is Ellipsis


def _along_rows(site) -> bool:
    """index_add_/index_copy_ along dim 0, where each index entry is one row of the source."""
    if site.dim is None:
        return False
    if site.dim >= 0:
        return site.dim == 0
    shapes = [s for s in (site.input.shape, site.payload.shape if site.payload else None) if s is not None and not s.variadic]
    return bool(shapes) and normalize_dim(site.dim, len(shapes[0].dims)) == 0


def _cut_from(token: Token, base: Token) -> Optional[Token]:
    """The cut on token's way that was taken from base itself, if any (the outermost one)."""
    while token and token[0] == "cut":
        if _key(token[2]) == _key(base):
            return token
        token = token[2]
    return None


def _key(token: Token) -> Token:
    """What a token stands for, without the name a cut was bound to (`uniq, counts = x.unique(...)`)."""
    if token and token[0] == "cut":
        return token[:2] + (_key(token[2]), token[3])
    return token


def _cuts_spelled(interp) -> bool:
    """Whether the function's text can hold a cut that a write by subscript could use: a slice,
    unique(), narrow() or masked_select() (kept on its node)."""
    function = interp.function
    found = getattr(function, "_gather_lint_cuts", None)
    if found is None:
        text = "\n".join(interp.source.lines[function.lineno - 1:function.end_lineno or function.lineno])
        found = "unique" in text or "narrow(" in text or "masked_select" in text or _CUT_SLICE.search(text) is not None
        function._gather_lint_cuts = found
    return found


class _Tracer:
    """Follows an expression's dim 0 back to the tensor it enumerates (its token), within one function."""

    def __init__(self, interp, line: int, positions: Optional[Token] = None):
        self.interp, self.line, self.steps = interp, line, 0
        self.segment = interp.source.segment
        self.known = set()  # tokens of tensors known to hold positions: the op's index and what it was cut from
        while positions:
            self.known.add(_key(positions))
            positions = positions[2] if positions[0] == "cut" else None

    def rows(self, node, line: Optional[int] = None) -> Optional[Token]:
        self.steps += 1
        if self.steps > _MAX_STEPS:
            return None
        line = self.line if line is None else line
        if isinstance(node, ast.Name):
            return self._name(node, line)
        if isinstance(node, ast.Attribute) and _dotted(node) is not None:
            return ("attr", _dotted(node))
        if isinstance(node, ast.Subscript):
            return self._subscript(node, line)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            return self.rows(node.left, line)  # [N, D] @ [D, E]: the left side's rows
        if isinstance(node, ast.BinOp):
            return self._both(node.left, node.right, line)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return self.rows(node.operand, line)
        if isinstance(node, ast.Call):
            return self._call(node, line)
        return None

    # ----- names ------------------------------------------------------------------------------
    def _name(self, node: ast.Name, line: int) -> Optional[Token]:
        stores = _bindings(self.interp.function).get(node.id, ())
        if len(stores) != 1:
            return None  # bound again somewhere: which binding reaches here is not known by syntax
        store = stores[0]
        if isinstance(store, (ast.Assign, ast.AnnAssign)):
            if store.lineno >= line:
                return None
            made = self._made(store, node.id)
            if made is not None and made[0] == "cut" and made[5] is None:
                made = made[:5] + (node.id,)  # the cut as the code names it: `kept = idx[:capacity]`
            return made if made is not None else ("name", node.id)
        return ("name", node.id)  # a parameter, a loop or `with` variable: the tensor itself

    def _made(self, store, name: str) -> Optional[Token]:
        value = store.value
        if value is None:
            return None
        targets = store.targets if isinstance(store, ast.Assign) else [store.target]
        if len(targets) != 1:
            return None
        target = targets[0]
        if isinstance(target, ast.Name):
            return self.rows(value, store.lineno)
        if isinstance(target, ast.Tuple) and _unique_call(value) is not None:
            return self._unpacked_unique(target, value, name, store.lineno)
        return None

    def _unpacked_unique(self, target: ast.Tuple, call: ast.Call, name: str, line: int) -> Optional[Token]:
        """`uniq, inverse, counts = x.unique(return_inverse=True, return_counts=True)`: the values and
        their counts have one entry per distinct value, the inverse one per entry of x."""
        flags = {k.arg: k.value for k in call.keywords if k.arg in ("return_inverse", "return_counts")}
        parts = ["values"] + [flag[len("return_"):] for flag in ("return_inverse", "return_counts")
                              if isinstance(flags.get(flag), ast.Constant) and flags[flag].value is True]
        names = [e.id if isinstance(e, ast.Name) else None for e in target.elts]
        if len(names) != len(parts) or name not in names:
            return None
        if parts[names.index(name)] == "inverse":
            return self.rows(_unique_call(call), line)
        return self._unique(call, line)

    # ----- subscripts -------------------------------------------------------------------------
    def _subscript(self, node: ast.Subscript, line: int) -> Optional[Token]:
        key = node.slice
        items = list(key.elts) if isinstance(key, ast.Tuple) else [key]
        first, rest = items[0], items[1:]
        if not all(_keeps_rows(item) for item in rest):
            return None
        if isinstance(first, ast.Slice):
            if _keeps_all(first, node.value):
                return self.rows(node.value, line)
            base = self.rows(node.value, line)
            if base is not None and self._length_of_rows(first, base, line):
                return base  # `emb[:len(idx)]` where emb has one row per entry of idx: every row
            return ("cut", "slice", base, self.segment(node), self.segment(node.value), None) if base is not None else None
        if isinstance(first, ast.Constant) and first.value is Ellipsis:
            return self.rows(node.value, line) if rest and all(_is_none(i) for i in rest) else None
        if isinstance(first, ast.Constant) or literal_int(first) is not None:
            return None  # an int drops dim 0
        if not rest and self.mask(first):
            base = self.rows(node.value, line)  # idx[keep]: the entries the mask keeps
            return ("cut", "mask", base, self.segment(node), self.segment(node.value), None) if base is not None else None
        picked = self.rows(first, line)
        return picked if self.positions(first, picked) else None  # table[ids]: one row per id

    def _length_of_rows(self, part: ast.Slice, rows: Token, line: int) -> bool:
        """`[:n]` with n the length of a tensor whose entries the sliced rows are, one each (`idx.shape[0]`,
        `idx.size(0)`, `len(idx)`): a slice that cannot leave anything out."""
        if not _from_the_start(part):
            return False
        measured = _measured(part.upper)
        if measured is None:
            return False
        counted = self.rows(measured, line)
        return counted is not None and _key(counted) == _key(rows)

    def mask(self, key) -> bool:
        """A boolean key: a comparison, its negation or conjunction, or a name the function knows as bool."""
        if isinstance(key, ast.Compare) or isinstance(key, ast.UnaryOp) and isinstance(key.op, (ast.Invert, ast.Not)):
            return True
        if isinstance(key, ast.BinOp) and isinstance(key.op, (ast.BitAnd, ast.BitOr)):
            return self.mask(key.left) or self.mask(key.right)
        name = key.id if isinstance(key, ast.Name) else _dotted(key)
        fact = self.interp.env.get(name) if name else None
        return isinstance(fact, TensorVal) and fact.dtype == "bool"

    def positions(self, key, token: Optional[Token]) -> bool:
        """Whether the key is a tensor of positions, one row per entry: a tensor the function knows (a
        mask, one row per True, is not), or made by unique(). A dict key or a list index is neither."""
        if token is None:
            return False
        if _made_by_unique(token) or any(_key(t) in self.known for t in _chain(token)):
            return True
        return self.known_tensor(key)

    def known_tensor(self, key) -> bool:
        """A key the environment knows as a tensor that is not a mask."""
        if isinstance(key, ast.Compare) or isinstance(key, ast.UnaryOp) and isinstance(key.op, (ast.Invert, ast.Not)):
            return False
        while isinstance(key, ast.Subscript) or isinstance(key, ast.Call) and isinstance(key.func, ast.Attribute):
            key = key.value if isinstance(key, ast.Subscript) else key.func.value  # a slice or a method keeps the dtype
        name = key.id if isinstance(key, ast.Name) else _dotted(key)
        fact = self.interp.env.get(name) if name else None
        return isinstance(fact, TensorVal) and fact.dtype != "bool"

    # ----- operators and calls ----------------------------------------------------------------
    def _both(self, left, right, line: int) -> Optional[Token]:
        """Elementwise maths: the rows of the tensor side; both sides must agree when both are tensors."""
        if _is_number(left):
            return self.rows(right, line)
        if _is_number(right):
            return self.rows(left, line)
        a, b = self.rows(left, line), self.rows(right, line)
        return a if a is not None and b is not None and _key(a) == _key(b) else None

    def _call(self, node: ast.Call, line: int) -> Optional[Token]:
        func = node.func
        if _unique_call(node) is not None:
            return self._unique(node, line)
        layer = self._layer(func)
        if layer is not None:
            return self.rows(node.args[0], line) if len(node.args) == 1 and not node.keywords \
                and _keeps_rows_layer(layer) else None
        if isinstance(func, ast.Attribute):
            module_function = _dotted(func.value) is not None and _dotted(func.value).split(".")[-1] in _MODULES \
                and not isinstance(self.interp.env.get(_dotted(func.value)), TensorVal)
            if module_function:
                if func.attr in _SAME_SHAPE or func.attr in ("unsqueeze", "index_select", "gather"):
                    return self._method(func.attr, node.args[0], node.args[1:], node, line) if node.args else None
                return None
            return self._method(func.attr, func.value, node.args, node, line)
        return None

    def _method(self, name: str, receiver, args, node: ast.Call, line: int) -> Optional[Token]:
        if name in _SAME_SHAPE:
            return self.rows(receiver, line)
        first = literal_int(args[0]) if args else None
        if name == "index_select" and len(args) == 2 and first == 0 or name == "gather" and len(args) == 2:
            return self.rows(args[1], line)  # one row per index entry: x.index_select(0, kept), x.gather(d, idx)
        if name in _ARITH and len(args) == 1:
            return self._both(receiver, args[0], line)
        if name in ("unsqueeze", "squeeze") and len(args) == 1 and first is not None and first != 0:
            return self.rows(receiver, line)
        if name == "expand_as" or (name == "expand" and first == -1) or (name == "repeat" and first == 1):
            return self.rows(receiver, line)
        if name in ("view", "reshape") and [literal_int(a) for a in args] in ([-1], [-1, 1]):
            return self.rows(receiver, line)
        if name == "flatten" and not args and not node.keywords:
            return self.rows(receiver, line)
        if (name == "narrow" and first == 0 and len(args) == 3) or (name == "masked_select" and len(args) == 1):
            base = self.rows(receiver, line)  # idx.narrow(0, start, k), idx.masked_select(keep): a cut of dim 0
            kind = "slice" if name == "narrow" else "mask"
            return ("cut", kind, base, self.segment(node), self.segment(receiver), None) if base is not None else None
        return None

    def _unique(self, node: ast.Call, line: int) -> Optional[Token]:
        source = _unique_call(node)
        name = source.id if isinstance(source, ast.Name) else _dotted(source)
        fact = self.interp.env.get(name) if name else None
        if isinstance(fact, TensorVal) and fact.shape is not None and fact.shape.rank not in (None, 1):
            return None  # unique() flattens: its count is of elements, not of a [N, K] tensor's rows
        base = self.rows(source, line)
        return ("cut", "unique", base, self.segment(node), self.segment(source), None) if base is not None else None

    def _layer(self, func):
        """The layer a call runs: `self.proj(x)`, a name bound to one (`for expert in self.experts`), or
        an element of a ModuleList (`self.experts[e](x)`)."""
        listed = isinstance(func, ast.Subscript)
        if listed:
            func = func.value
        name = func.id if isinstance(func, ast.Name) else _dotted(func)
        found = self.interp.env.get(name) if name else None
        if listed:
            found = found.element if isinstance(found, modules.LayerList) else None
        return found if modules.is_layer(found) else None


def _chain(token: Token):
    """The token and every tensor it was cut from."""
    while token:
        yield token
        token = token[2] if token[0] == "cut" else None


def _made_by_unique(token: Token) -> bool:
    while token and token[0] == "cut":
        if token[1] == "unique":
            return True
        token = token[2]
    return False


def _keeps_rows_layer(layer) -> bool:
    """A layer whose output has its input's dim 0 (Linear, activations, a Sequential of them), tried
    on a `[rows, features]` probe."""
    rows = Sym("rows of the probe")
    try:
        out = layer.apply(TensorVal(Shape((rows, None))))
    except Exception:  # a layer's shape rule meeting a probe it was not written for
        return False
    return isinstance(out, TensorVal) and out.shape is not None and not out.shape.variadic \
        and bool(out.shape.dims) and out.shape.dims[0] == rows


def _unique_call(node) -> Optional[ast.AST]:
    """The tensor `t.unique(...)` / `torch.unique(t, ...)` / `unique_consecutive` is taken of."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return None
    if node.func.attr not in ("unique", "unique_consecutive"):
        return None
    if any(k.arg == "dim" for k in node.keywords):
        return None  # unique rows or columns: a cut of another dim
    owner = _dotted(node.func.value)
    if owner is not None and owner.split(".")[-1] == "torch":
        return node.args[0] if node.args and len(node.args) < 5 else None
    return node.func.value if not node.args else None


def _keeps_all(part: ast.Slice, sliced) -> bool:
    """`t[:]`, `t[0:]`, `t[:len(t)]`, `t[:t.size(0)]`: a slice that cannot leave anything out."""
    if not _from_the_start(part):
        return False
    if part.upper is None or isinstance(part.upper, ast.Constant) and part.upper.value is None:
        return True
    text = ast.dump(sliced)
    return any(ast.dump(n) == text for n in ast.walk(part.upper))  # bounded by the tensor's own length


def _from_the_start(part: ast.Slice) -> bool:
    """`[:n]`, `[0:n]`: no step, and no start but 0."""
    return part.step is None and (part.lower is None or literal_int(part.lower) == 0)


def _measured(bound) -> Optional[ast.AST]:
    """The tensor whose dim-0 length `bound` reads: `t.shape[0]`, `t.size(0)`, `t.size()[0]`, `len(t)`."""
    if isinstance(bound, ast.Call) and isinstance(bound.func, ast.Name) and bound.func.id == "len" and len(bound.args) == 1:
        return bound.args[0]
    if isinstance(bound, ast.Call) and isinstance(bound.func, ast.Attribute) and bound.func.attr == "size" \
            and len(bound.args) == 1 and literal_int(bound.args[0]) == 0:
        return bound.func.value
    if isinstance(bound, ast.Subscript) and literal_int(bound.slice) == 0:
        owner = bound.value
        if isinstance(owner, ast.Attribute) and owner.attr == "shape":
            return owner.value
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Attribute) and owner.func.attr == "size" and not owner.args:
            return owner.func.value
    return None


def _keeps_rows(item) -> bool:
    """Later subscript items that leave dim 0 alone: slices, None, ints and `...`."""
    return isinstance(item, ast.Slice) or isinstance(item, ast.Constant) and (
        item.value is None or item.value is Ellipsis or isinstance(item.value, int)) \
        or literal_int(item) is not None


def _is_none(item) -> bool:
    return isinstance(item, ast.Constant) and item.value is None


def _is_number(node) -> bool:
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


def _dotted(node) -> Optional[str]:
    """`self.queue` / `torch.nn.functional`: a chain of names, as the environment keys it."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))
