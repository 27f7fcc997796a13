"""Small shared pieces of the interpreter's mixins: shape merging, dim arithmetic, constructors."""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Optional

from . import exact_values, symbolic
from . import tensor_ops as ops
from ..contract import Domain
from ..dims import Shape, Sym, value
from .modules import LayerList
from .subscript_rank import told_in_prose
from .values import UNKNOWN_ARITY, DimVal, Literal, SeqVal, TensorVal, join_all


_TERMINAL = (ast.Return, ast.Raise, ast.Continue, ast.Break)

# (interpreter class, node type) -> its expr_ (or stmt_) method or None, found once: a name built and looked
# up through the mixins on every node (a failed lookup raises inside getattr) cost more than many visits.
# Callers read the table inline (.get(key, UNKNOWN)) and ask visit_method only on a miss.
EXPR_VISITS: dict = {}
STMT_VISITS: dict = {}
UNKNOWN = object()


def visit_method(visits: dict, cls: type, node_type: type, prefix: str):
    method = visits[(cls, node_type)] = getattr(cls, prefix + node_type.__name__, None)
    return method


def _negative(v) -> Optional[int]:
    """A negative int constant (a padding value such as -100), if v is one."""
    n = ops.as_int(v)
    return n if n is not None and n < 0 else None


def _made_float(t: TensorVal, how: str, at: Optional[tuple] = None) -> TensorVal:
    base = t.domain or Domain()
    return t.with_(domain=replace(base, made_float=how, made_float_at=at))


def _with_sentinel(t: TensorVal, value: Optional[int], line: Optional[int]) -> TensorVal:
    """t whose values may now include `value` (negative padding), or no longer any padding (None)."""
    base = t.domain or Domain()
    if value is None and base.sentinel is None:
        return t
    domain = replace(base, sentinel=value, sentinel_line=line if value is not None else None)
    return t.with_(domain=None if domain == Domain() else domain)


def _carry(a, b, result):
    """Keep the GL006 mark through ops that keep the marked tensor's shape."""
    marked = a if isinstance(a, TensorVal) and a.kept_singleton is not None else (
        b if isinstance(b, TensorVal) and b.kept_singleton is not None else None)
    if marked is None or not isinstance(result, TensorVal) or result.shape is None or marked.shape is None:
        return result
    if result.shape == marked.shape:
        return result.with_(kept_singleton=marked.kept_singleton, kept_at=marked.kept_at)
    return result


def _is_float(t: TensorVal) -> bool:
    return t.dtype is not None and t.dtype in ops.FLOAT_DTYPES


_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
           ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}




def _named_arith(a, b, symbol):
    """B * T and T - 1 with a named B or T: the names ops give their results (see symbolic.py)."""
    if symbol == "*" and a is not None and b is not None:
        d = symbolic.product([a, b])
        return DimVal(d) if d is not None else None
    if symbol == "-" and isinstance(a, Sym) and isinstance(value(b), int) and not isinstance(b, Sym):
        d = symbolic.minus(a, value(b))
        return DimVal(d) if d is not None else None
    return None


def _merge(result, shape: Optional[Shape], origin: str, dtype: Optional[str] = None):
    """Combine an inferred value with a written shape: names from the text, sizes from the code."""
    if shape is None:
        return result
    if result is not None and not isinstance(result, TensorVal):
        return result
    base = result or TensorVal()
    inferred = base.shape
    if inferred is None:
        return base.with_(shape=shape, origin=origin, dtype=dtype or base.dtype)
    if inferred.variadic and not shape.variadic and len(inferred.dims) <= len(shape.dims):
        # the code knows the trailing dims only (`emb(ids)` is [..., D]): the comment names the leading ones
        inferred = Shape(tuple(shape.dims[:len(shape.dims) - len(inferred.dims)]) + inferred.dims)
    if inferred.variadic or shape.variadic or len(inferred.dims) != len(shape.dims):
        return base  # the code disagrees with the comment: trust the code
    dims = []
    for written, seen in zip(shape.dims, inferred.dims):
        seen_value = value(seen)
        if written is None:
            dims.append(seen)
        elif isinstance(written, int):
            if seen_value is not None and seen_value != written:
                return base
            dims.append(written)
        elif seen_value is not None:
            dims.append(Sym(written.name, expr=(seen.expr if isinstance(seen, Sym) else None), size=seen_value))
        elif isinstance(seen, Sym):
            dims.append(seen)  # keep the code's own name: it ties to other tensors in scope
        else:
            dims.append(written)
    return base.with_(shape=Shape(tuple(dims)), origin=origin, dtype=dtype or base.dtype)


def _row_of(iterable, node):
    """`for row in x` gives x's rows; zip() of tensors gives a tuple of rows; a ModuleList its layer."""
    if isinstance(iterable, LayerList):
        return iterable.element
    if isinstance(iterable, ops.Repeated):
        return iterable.element  # `for x, y in batches` over a list built by a comprehension of (x, y) pairs
    if isinstance(iterable, SeqVal) and not iterable.names and iterable.items and node is not None \
            and not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("zip", "enumerate")):
        # `for state in (key, value)`, `for b in records`: what every item agrees on
        agreed = join_all(iterable.items)
        if agreed is not None:
            return agreed
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
        return DimVal(None)  # for t in range(T): t is one int, whatever its value (x[:, t] drops a dim)
    if isinstance(node, (ast.Tuple, ast.List)) and node.elts:
        return _literal_row(node.elts)
    if isinstance(iterable, TensorVal):
        s = iterable.shape
        if s is not None and not s.variadic and s.dims:
            told = iterable.origin if told_in_prose(iterable) else ""  # a row of a tensor a docstring told is told by it too
            return exact_values.row(iterable, TensorVal(Shape(s.dims[1:]), iterable.dtype, iterable.domain, origin=told))
        return TensorVal(None, iterable.dtype, iterable.domain) if iterable.domain else None
    if isinstance(iterable, SeqVal) and isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id == "zip":  # of tensors, their rows; of sequences (`zip(dims[:-1], dims[1:])`), what items agree on
            return SeqVal(tuple(join_all(i.items) if isinstance(i, SeqVal) and not i.names and i.items else _row_of(i, None)
                                for i in iterable.items))
        if node.func.id == "enumerate":  # the counter is one int, as range's is
            return SeqVal((DimVal(None), _row_of(iterable.items[1], None)))
    return None


def _literal_row(elements):
    """`for k in (0, 1)`: k is one int; `for k, w in ((0, a), (1, b))`: k is one int, w unknown."""
    def is_int(e) -> bool:
        return isinstance(e, ast.Constant) and type(e.value) is int
    if all(is_int(e) for e in elements):
        return DimVal(None)
    if all(isinstance(e, ast.Tuple) for e in elements) and len({len(e.elts) for e in elements}) == 1:
        return SeqVal(tuple(DimVal(None) if all(is_int(e.elts[k]) for e in elements) else None
                            for k in range(len(elements[0].elts))))
    return None


def _size_args(args, kwargs) -> Optional[Shape]:
    """torch.zeros(2, 3), zeros((2, 3)), zeros(size=x.shape); zeros(n, d) with untracked n, d is still 2-d."""
    sizes = kwargs.get("size")
    if "size" in kwargs and sizes is None:
        return None  # zeros(size=s.size()) of an untracked s: not a 0-d tensor
    if sizes is None:
        if len(args) == 1 and not isinstance(args[0], (SeqVal, DimVal)):
            return None  # a single untracked argument may be a whole tuple of sizes
        sizes = args[0] if len(args) == 1 and isinstance(args[0], SeqVal) else SeqVal(tuple(args))
    if not isinstance(sizes, SeqVal) or any(isinstance(v, (SeqVal, TensorVal, ops.Repeated)) or v is UNKNOWN_ARITY
                                            or (isinstance(v, Literal)) for v in sizes.items):
        return None
    return Shape(tuple(v.dim if isinstance(v, DimVal) else None for v in sizes.items))


def _literal_ints(node):
    for n in ast.walk(node):
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub) and isinstance(n.operand, ast.Constant) \
                and isinstance(n.operand.value, int) and not isinstance(n.operand.value, bool):
            yield -n.operand.value


def padding_of_literal(node) -> Optional[int]:
    """The negative value a written-out int table pads with: the trailing run of its rows (`[[1, 2, -1],
    [3, -1, -1]]`), a negative that a flat list repeats (`[4, 7, -1, -1]`) or is made of (`[-1]`, appended to
    positions as a spare slot). A lone negative among
    positions (`[0, -1]`: the first and the last) counts from the end on purpose: None."""
    rows = node.elts if isinstance(node, (ast.List, ast.Tuple)) else ()
    if rows and all(isinstance(row, (ast.List, ast.Tuple)) for row in rows):
        found = set()
        for row in rows:
            entries = [_int_entry(e) for e in row.elts]
            if None in entries:
                return None
            tail = len(entries)
            while tail and entries[tail - 1] < 0:
                tail -= 1
            if any(v < 0 for v in entries[:tail]):
                return None  # a negative between positions: not a pad at the row's end
            found.update(entries[tail:])
        return found.pop() if len(found) == 1 else None
    negatives = list(_literal_ints(node))
    if len(set(negatives)) != 1:
        return None
    only = isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) == len(negatives)  # `[-1]`: an appended slot
    return negatives[0] if only or len(negatives) >= 2 else None


def _int_entry(node) -> Optional[int]:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_entry(node.operand)
        return -inner if inner is not None else None
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None


def _literal_shape(node):
    """Shape and dtype of a nested list literal: `[[1, 2], [3, 4]]` is [2, 2] int64."""
    if isinstance(node, (ast.List, ast.Tuple)):
        if not node.elts:
            return Shape((0,)), "float32"
        inner = [_literal_shape(e) for e in node.elts]
        shapes = {s for s, _ in inner}
        dtypes = {d for _, d in inner}
        if len(shapes) != 1 or None in shapes:
            return None, None
        sub = next(iter(shapes))
        dtype = "float32" if "float32" in dtypes else ("int64" if dtypes == {"int64"} else ("bool" if dtypes == {"bool"} else None))
        return Shape((len(node.elts),) + sub.dims), dtype
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool):
            return Shape(()), "bool"
        if isinstance(node.value, int):
            return Shape(()), "int64"
        if isinstance(node.value, float):
            return Shape(()), "float32"
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return _literal_shape(node.operand)
    return None, None


def scalar_list_shape(node):
    """Shape and dtype of a flat list literal whose items are numbers by their syntax, whatever their values:
    `[step % window, n - 1, int(x), len(s), t.item()]` is [5]. `+` and `*` are left out, as they also join
    and repeat lists; a name may hold a list."""
    if not isinstance(node, (ast.List, ast.Tuple)) or not node.elts:
        return None, None
    dtypes = [_number_dtype(e) for e in node.elts]
    if any(d is False for d in dtypes):
        return None, None
    known = set(dtypes)
    dtype = "float32" if "float32" in known else ("int64" if known == {"int64"} else None)
    return Shape((len(node.elts),)), dtype


_NUMBER_OPS = (ast.Sub, ast.Mod, ast.FloorDiv, ast.Div, ast.Pow)
_NUMBER_CALLS = {"int": "int64", "len": "int64", "float": "float32", "round": None, "abs": None}


def _number_dtype(node):
    """The dtype a number written this way gives (None: int or float), False when it may be no number."""
    shape, dtype = _literal_shape(node)
    if shape is not None:
        return dtype if not shape.dims else False
    if isinstance(node, ast.BinOp) and isinstance(node.op, _NUMBER_OPS):
        return "float32" if isinstance(node.op, ast.Div) else None
    if isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not):
        return None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _NUMBER_CALLS:
        return _NUMBER_CALLS[node.func.id]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "item" \
            and not node.args:
        return None
    return False


def _einops_groups(side: str):
    groups, current, inside = [], [], False
    for token in side.replace("(", " ( ").replace(")", " ) ").split():
        if token == "(":
            inside, current = True, []
        elif token == ")":
            groups.append(current)
            inside = False
        elif token == "...":
            return None
        elif inside:
            current.append(token)
        else:
            groups.append([token])
    return groups
