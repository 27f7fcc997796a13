"""Transfer functions: the shape, dtype and index-value domain of a torch op's result.

Each takes the receiver (the tensor the op applies to) and the abstract values of the other
arguments, and returns an abstract value, or None whenever the answer is not certain.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Dict, List, Optional

from ..contract import Domain
from ..dims import Dim, Shape, Sym, broadcast, dim_text, must_differ, normalize_dim, product, value
from . import constant_fills, op_census, position_tuples, signs, symbolic
from .dtypes import true_division
from .values import DimVal, Literal, SeqVal, TensorVal

FLOAT_DTYPES = {"float16", "bfloat16", "float32", "float64"}
CAST_METHODS = {
    "float": "float32", "double": "float64", "half": "float16", "bfloat16": "bfloat16",
    "long": "int64", "int": "int32", "short": "int16", "bool": "bool", "byte": "uint8", "char": "int8",
}
DTYPE_NAMES = {
    "float": "float32", "float32": "float32", "float64": "float64", "double": "float64", "float16": "float16",
    "half": "float16", "bfloat16": "bfloat16", "long": "int64", "int64": "int64", "int": "int32",
    "int32": "int32", "int16": "int16", "short": "int16", "int8": "int8", "uint8": "uint8", "bool": "bool",
}
# norms of vectors and matrices: reductions whose values are never below 0 (a max of them onto zeros is the max)
NORMS = frozenset({"norm", "vector_norm", "matrix_norm"})
# Ops that keep shape and dtype and whose values are no longer positions.
_ELEMENTWISE = {
    "abs", "neg", "relu", "sigmoid", "tanh", "exp", "log", "sqrt", "rsqrt", "softmax", "log_softmax",
    "gumbel_softmax",
    "gelu", "silu", "square", "reciprocal", "sign", "exp_", "log_", "relu_", "sigmoid_", "softplus",
    "clamp_min", "clamp_max", "nan_to_num", "pow", "mul", "add", "sub",
    "div", "logit", "log1p", "expm1", "fill_", "zero_", "normal_", "uniform_",
    "dropout", "layer_norm", "erf", "floor", "ceil", "round", "trunc", "frac", "logical_not",
    # torch.nn.functional's shape-keeping activations and norms (F.normalize(torch.randn(K, dim), dim=1))
    "normalize", "leaky_relu", "elu", "selu", "celu", "relu6", "hardtanh", "hardswish", "hardsigmoid", "mish",
    "softsign", "logsigmoid", "softmin", "group_norm", "instance_norm", "batch_norm", "rms_norm",
    "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
}
# elementwise ops whose result is a float even for integer or bool inputs
_FLOAT_RESULT = {"exp", "log", "sqrt", "rsqrt", "sigmoid", "tanh", "logit", "log1p", "expm1", "erf", "reciprocal",
                 "softsign"}
# two-operand arithmetic spelled as a method (the other operand's keyword): broadcast and promoted as the operator
_ARITHMETIC = {"mul": "other", "add": "other", "sub": "other", "pow": "exponent", "clamp_min": "min", "clamp_max": "max"}
TRUE_DIVISION = {"div", "divide", "true_divide"}  # in-place forms raise on integer tensors
_KEEP = {"contiguous", "clone", "detach", "cpu", "cuda", "requires_grad_", "detach_", "pin_memory", "coalesce"}
# Ops that move values without changing shape, dtype or what they index (rolled or flipped ids are ids).
PERMUTING = {"roll", "flip", "fliplr", "flipud", "rot90"}
_REDUCE = {"sum", "mean", "prod", "amax", "amin", "logsumexp", "norm", "std", "var", "all", "any", "nansum", "count_nonzero",
           "nanmean"}
_SIGN_KEEPING_REDUCTIONS = {"sum", "mean", "amax", "amin", "nansum", "nanmean"}  # of values >= 0, or of values below 0


def as_int(v) -> Optional[int]:
    return value(v.dim) if isinstance(v, DimVal) else None


def as_dim(v) -> Dim:
    if isinstance(v, DimVal):
        return v.dim
    return None


def _sizes(args: List[object]) -> Optional[List[object]]:
    """view(2, 3) and view((2, 3)) and view(x.shape) alike; None when the sizes' count is unknown.

    A lone argument that is not a tracked int or sequence may be a whole tuple of sizes
    (`view(shape)`, `expand(torch.Size(...))`): never read it as one dim.
    """
    if len(args) == 1 and isinstance(args[0], SeqVal):
        args = list(args[0].items)
    elif len(args) == 1 and not isinstance(args[0], DimVal):
        return None
    if any(isinstance(v, (SeqVal, TensorVal)) or (isinstance(v, Literal) and v.value is not None) for v in args):
        return None  # a nested sequence, a tensor or a spliced list of unknown length
    return list(args)


def fixed_shape(t) -> Optional[Shape]:
    """The shape of a tensor of known rank; None for anything else (a variadic shape, not a tensor)."""
    s = t.shape if isinstance(t, TensorVal) else None
    return None if s is None or s.variadic else s


def certain_shape(t) -> Optional[Shape]:
    """A tensor's shape when its rank is known for certain (no `...` prefix, none guessed from an unknown
    operand), else None: what a check that says "torch raises" may read."""
    shape = fixed_shape(t)
    return None if shape is None or shape.guessed else shape


def _with_shape(t: TensorVal, dims) -> TensorVal:
    shape = Shape(tuple(dims)) if dims is not None else None
    return TensorVal(shape, t.dtype, t.domain)


def _arg(args, kwargs, position, name, default=None):
    if name in kwargs:
        return kwargs[name]
    return args[position] if len(args) > position else default


def unsqueeze(t, args, kwargs):
    s, d = fixed_shape(t), as_int(_arg(args, kwargs, 0, "dim"))
    if s is None or d is None:
        return TensorVal(None, t.dtype, t.domain)
    axis = normalize_dim(d, len(s.dims) + 1)
    if axis is None:
        return None
    dims = list(s.dims)
    dims.insert(axis, 1)
    return _with_shape(t, dims)


def squeeze(t, args, kwargs):
    s = fixed_shape(t)
    d = _arg(args, kwargs, 0, "dim")
    if s is None:
        return TensorVal(None, t.dtype, t.domain)
    if d is None:
        if all(value(x) is not None for x in s.dims):
            return _with_shape(t, [x for x in s.dims if value(x) != 1])
        return TensorVal(None, t.dtype, t.domain)
    axis = normalize_dim(as_int(d), len(s.dims)) if as_int(d) is not None else None
    if axis is None:
        return TensorVal(None, t.dtype, t.domain)
    if not s.dims:
        return t  # squeeze(0) / squeeze(-1) of a 0-d tensor: still 0-d
    size = value(s.dims[axis])
    if size == 1:
        return _with_shape(t, s.dims[:axis] + s.dims[axis + 1:])
    if size is not None:
        return t  # squeezing a dim that is not 1 changes nothing
    return TensorVal(None, t.dtype, t.domain)  # a named or unknown dim may be 1


def view(t, args, kwargs):
    sizes = _sizes(args)
    if not sizes or any(not isinstance(v, DimVal) and v is not None for v in sizes):
        return TensorVal(None, t.dtype, t.domain)
    dims = [as_dim(v) for v in sizes]
    if any(value(d) == -1 for d in dims):
        s = fixed_shape(t)
        total = product(s.dims) if s is not None else None
        rest = product(d for d in dims if value(d) != -1)
        fill = total // rest if isinstance(total, int) and isinstance(rest, int) and rest else None
        if fill is None and s is not None and sum(value(d) == -1 for d in dims) == 1:
            fill = symbolic.quotient(list(s.dims), [d for d in dims if value(d) != -1])
        if fill is None and rest == 1:
            fill = total  # view(-1) of [B, 1] is [B]
        dims = [fill if value(d) == -1 else d for d in dims]
    return _with_shape(t, dims)


def expand(t, args, kwargs):
    sizes = _sizes(args)
    s = fixed_shape(t)
    if not sizes:
        return TensorVal(None, t.dtype, t.domain)
    dims: List[Dim] = []
    offset = len(sizes) - (len(s.dims) if s is not None else 0)
    for k, v in enumerate(sizes):
        d = as_dim(v)
        if value(d) == -1:
            if s is None or k - offset < 0:
                dims.append(None)
            else:
                dims.append(s.dims[k - offset])
        else:
            dims.append(d)
    return _with_shape(t, dims)


def expand_as(t, args, kwargs):
    other = args[0] if args else None
    return _with_shape(t, other.shape.dims) if isinstance(other, TensorVal) and fixed_shape(other) else TensorVal(None, t.dtype, t.domain)


def repeat(t, args, kwargs):
    sizes = _sizes(args)
    s = fixed_shape(t)
    if s is None or not sizes or len(sizes) < len(s.dims):
        return TensorVal(None, t.dtype, t.domain)
    lead = len(sizes) - len(s.dims)
    dims = []
    for k, v in enumerate(sizes):
        r = as_int(v)
        base = s.dims[k - lead] if k >= lead else 1
        if r == 1:
            dims.append(base)
        elif r is not None and value(base) is not None:
            dims.append(r * value(base))
        elif r is not None and r > 1 and isinstance(base, Sym):
            dims.append(symbolic.product([r, base]))  # `k*M`, the name a cat of k such pieces gets
        elif value(base) == 1:
            dims.append(as_dim(v))
        else:
            dims.append(None)
    return _with_shape(t, dims)


def repeat_interleave(t, args, kwargs):
    """`t.repeat_interleave(r)`: each entry r times, flattened ([numel * r]); with `dim=d`, dim d times r. A
    tensor of repeats gives a length known only at run time. The values are t's, repeated."""
    s = fixed_shape(t)
    repeats, dim = _arg(args, kwargs, 0, "repeats"), _arg(args, kwargs, 1, "dim")
    if s is None or (dim is not None and as_int(dim) is None):
        return TensorVal(None, t.dtype, t.domain)
    times = as_dim(repeats)
    if dim is None:
        return _with_shape(t, [symbolic.product(list(s.dims) + [times]) if times is not None else None])
    axis = normalize_dim(as_int(dim), len(s.dims)) if s.dims else None  # torch refuses a dim of a 0-d tensor
    if axis is None:
        return TensorVal(None, t.dtype, t.domain)
    dims = list(s.dims)
    dims[axis] = symbolic.product([dims[axis], times]) if times is not None else None
    return _with_shape(t, dims)


def permute(t, args, kwargs):
    s = fixed_shape(t)
    order = [as_int(v) for v in (_sizes(args) or [])]
    if s is None or len(order) != len(s.dims) or None in order:
        return TensorVal(None, t.dtype, t.domain)
    axes = [normalize_dim(o, len(s.dims)) for o in order]
    if None in axes:
        return None
    return _with_shape(t, [s.dims[a] for a in axes])


def transpose(t, args, kwargs):
    return _two_dim_move(t, args, kwargs, ("dim0", "dim1"), _swap)


def _swap(dims: list, a: int, b: int) -> None:
    dims[a], dims[b] = dims[b], dims[a]


def _two_dim_move(t, args, kwargs, names, move):
    """transpose/movedim: two dim arguments, normalised against t's rank, then `move(dims, a, b)`."""
    s = fixed_shape(t)
    a, b = as_int(_arg(args, kwargs, 0, names[0])), as_int(_arg(args, kwargs, 1, names[1]))
    if s is None or a is None or b is None:
        return TensorVal(None, t.dtype, t.domain)
    a, b = normalize_dim(a, len(s.dims)), normalize_dim(b, len(s.dims))
    if a is None or b is None:
        return None
    if not s.dims:
        return _with_shape(t, ())  # transpose(0, -1) of a 0-d tensor: dims 0 and -1 are its one virtual dim
    dims = list(s.dims)
    move(dims, a, b)
    return _with_shape(t, dims)


def narrow(t, args, kwargs):
    """narrow(dim, start, length): the dim becomes `length`."""
    s = fixed_shape(t)
    d, length = as_int(_arg(args, kwargs, 0, "dim")), _arg(args, kwargs, 2, "length")
    if s is None or d is None:
        return TensorVal(None, t.dtype, t.domain)
    axis = normalize_dim(d, len(s.dims))
    if axis is None or not s.dims:  # torch refuses to narrow a 0-d tensor
        return None
    dims = list(s.dims)
    dims[axis] = as_dim(length)
    return _with_shape(t, dims)


def t_(t, args, kwargs):
    s = fixed_shape(t)
    if s is None or len(s.dims) > 2:
        return TensorVal(None, t.dtype, t.domain)
    return _with_shape(t, tuple(reversed(s.dims)))


def flatten(t, args, kwargs):
    s = fixed_shape(t)
    start = as_int(_arg(args, kwargs, 0, "start_dim", DimVal(0)))
    end = as_int(_arg(args, kwargs, 1, "end_dim", DimVal(-1)))
    if s is None or start is None or end is None:
        return TensorVal(None, t.dtype, t.domain)
    if not s.dims:
        return _with_shape(t, [1])
    a, b = normalize_dim(start, len(s.dims)), normalize_dim(end, len(s.dims))
    if a is None or b is None or a > b:
        return None
    return _with_shape(t, list(s.dims[:a]) + [symbolic.product(s.dims[a:b + 1])] + list(s.dims[b + 1:]))


def unflatten(t, args, kwargs):
    """unflatten(dim, (a, b)): one dim split into several; a -1 stands for what the others leave."""
    s = fixed_shape(t)
    d, sizes = as_int(_arg(args, kwargs, 0, "dim")), _arg(args, kwargs, 1, "sizes")
    if s is None or d is None or not isinstance(sizes, SeqVal) or not sizes.items:
        return TensorVal(None, t.dtype, t.domain)
    axis = normalize_dim(d, len(s.dims)) if s.dims else None  # torch refuses to unflatten a 0-d tensor
    if axis is None or any(not isinstance(v, DimVal) for v in sizes.items):
        return TensorVal(None, t.dtype, t.domain)
    parts = [v.dim for v in sizes.items]
    if sum(value(p) == -1 for p in parts) > 1:
        return TensorVal(None, t.dtype, t.domain)
    if any(value(p) == -1 for p in parts):
        fill = symbolic.quotient([s.dims[axis]], [p for p in parts if value(p) != -1])
        parts = [fill if value(p) == -1 else p for p in parts]
    return _with_shape(t, list(s.dims[:axis]) + parts + list(s.dims[axis + 1:]))


def movedim(t, args, kwargs):
    """movedim(source, destination) with single dims."""
    return _two_dim_move(t, args, kwargs, ("source", "destination"), _move)


def _move(dims: list, a: int, b: int) -> None:
    dims.insert(b, dims.pop(a))


_INTEGER_ACCUMULATE = {"sum", "prod", "nansum", "cumsum", "cumprod"}
# reductions with a `dtype=` keyword: torch computes and returns in that dtype (cumsum(mask, 0, dtype=torch.int32))
_TAKES_DTYPE = {"sum", "prod", "nansum", "mean", "nanmean", "cumsum", "cumprod"}
# the positions of dim and keepdim where they are not the first two: std(dim, unbiased, keepdim), norm(p, dim, keepdim)
_REDUCE_POSITIONS = {"std": (0, 2), "var": (0, 2), "norm": (1, 2)}


def asked_dtype(kwargs, default: Optional[str]) -> Optional[str]:
    """The result's dtype under a `dtype=` keyword: the one it names, `default` without it (or with
    dtype=None), None (unknown) when it names no literal dtype."""
    v = kwargs.get("dtype")
    if v is None and "dtype" in kwargs:
        return None
    if v is None or (isinstance(v, Literal) and v.value is None):
        return default
    return v.value[6:] if isinstance(v, Literal) and isinstance(v.value, str) and v.value.startswith("dtype:") else None


def reduced_axis(name: str, t, args, kwargs) -> Optional[int]:
    """The one dim `t.<name>(...)` reduces and drops (no keepdim), counted from 0; None for several dims,
    every dim, a kept dim or a dim not known."""
    s = fixed_shape(t)
    given, keep = _reduced_dim_and_keep(name, args, kwargs)
    dim = as_int(given)
    if s is None or dim is None or not (isinstance(keep, Literal) and keep.value is False):
        return None
    return normalize_dim(dim, len(s.dims))


def _reduced_dim_and_keep(name: str, args, kwargs):
    """The `dim` and `keepdim` arguments of a reduction, by keyword or at their positions (Literal(False) when
    keepdim is not given)."""
    at_dim, at_keep = _REDUCE_POSITIONS.get(name, (0, 1))
    return _arg(args, kwargs, at_dim, "dim"), _arg(args, kwargs, at_keep, "keepdim", Literal(False))


def reduce(t, args, kwargs, indices=False, name=""):
    """sum/mean/argmax/...: drop (or keep as 1) the reduced dims."""
    s = fixed_shape(t)
    at_dim = _REDUCE_POSITIONS.get(name, (0, 1))[0]
    dim, keep = _reduced_dim_and_keep(name, args, kwargs)
    keepdim = isinstance(keep, Literal) and keep.value is True
    dtype = "int64" if indices else t.dtype
    if name in _INTEGER_ACCUMULATE and t.dtype is not None and t.dtype not in FLOAT_DTYPES:
        dtype = "int64"  # torch accumulates bool and integer sums in int64
    elif name in ("all", "any"):
        dtype = "bool"
    elif name == "count_nonzero":
        dtype = "int64"
    elif name not in ("amax", "amin", "max", "min", "") and dtype is not None and dtype not in FLOAT_DTYPES and not indices:
        dtype = None  # mean/std/... of integers raise or promote: not tracked
    if name in _TAKES_DTYPE:
        dtype = asked_dtype(kwargs, dtype)
    if dim is None and len(args) <= at_dim and "dim" not in kwargs:  # x.norm(2): p, over every dim
        if keepdim:  # each dim kept as 1
            return TensorVal(Shape((1,) * len(s.dims)) if s is not None else None, dtype)
        return TensorVal(Shape(()), dtype, _flat_positions(s) if indices else None)
    if s is None or not isinstance(keep, Literal):
        return TensorVal(None, dtype)
    axes = [as_int(v) for v in dim.items] if isinstance(dim, SeqVal) else [as_int(dim)]
    if None in axes:
        return TensorVal(None, dtype)
    norm = {normalize_dim(a, len(s.dims)) for a in axes}
    if None in norm:
        return None
    if not s.dims:  # a 0-d tensor reduced over its one virtual dim (0 or -1) stays 0-d, keepdim or not
        return TensorVal(Shape(()), dtype)
    dims = [1 if k in norm else d for k, d in enumerate(s.dims)] if keepdim else [d for k, d in enumerate(s.dims) if k not in norm]
    domain = None
    if indices and len(norm) == 1:
        axis = next(iter(norm))
        domain = Domain(s.dims[axis], origin="")
    return TensorVal(Shape(tuple(dims)), dtype, domain)


def _flat_positions(s: Optional[Shape]) -> Optional[Domain]:
    """argmax/argmin without a dim pick one position of the flattened tensor: of a [B, A] tensor a value in
    [0, B*A), not a column of each row."""
    if s is None or len(s.dims) < 2 or any(d is None for d in s.dims):
        return None
    total = symbolic.product(list(s.dims))
    if total is None:
        return None
    return Domain(total, origin=f"in the whole flattened {s} tensor (no dim given: a value in [0, {dim_text(total)}))")


def count_and_dim(args: list, kwargs: dict):
    """(k, dim) of `topk(k, dim=-1)` and `kthvalue(k, dim=-1)`, as the call gives them (k a size, dim an int)."""
    return as_dim(_arg(args, kwargs, 0, "k")), as_int(_arg(args, kwargs, 1, "dim", DimVal(-1)))


def with_indices(t, args, kwargs, what: str, origin_text: str):
    """topk / sort / max(dim) / min(dim) / median(dim) / mode / kthvalue: (values, indices) with the
    indices' domain."""
    s = fixed_shape(t)
    named = what
    if what == "kthvalue":  # kthvalue(k, dim=-1): the k-th smallest along dim, reduced like min(dim)
        args, kwargs, what = list(args[1:]), {key: v for key, v in kwargs.items() if key != "k"}, "min"
    if named in ("kthvalue", "mode") and _arg(args, kwargs, 0, "dim") is None:
        args = [DimVal(-1)] + list(args)  # mode() and kthvalue(k) reduce the last dim
    if what == "topk":
        k, dim = count_and_dim(args, kwargs)
    else:
        k = None
        dim = as_int(_arg(args, kwargs, 0, "dim", DimVal(-1)))
    if what in _REDUCED_WITH_INDICES:
        given = _arg(args, kwargs, 0, "dim")
        if given is None and not args and "dim" not in kwargs and "other" not in kwargs:
            return TensorVal(Shape(()), t.dtype)  # max() with no dim is a plain reduction
        if what in ("max", "min") and isinstance(given, TensorVal):  # `torch.min(a, b)`: elementwise, broadcast
            return TensorVal(None, t.dtype if given.dtype == t.dtype else None)
        if what in ("max", "min") and not isinstance(given, DimVal):
            return None  # an unknown argument: a dim (values and indices) or a tensor (elementwise)
        shaped = reduce(t, args, kwargs, indices=True)
        if shaped is None:
            return None
        values = TensorVal(shaped.shape, t.dtype)
        # one pick per row, as argmax's: different rows pick the same position (none to repeat in a 0-d result);
        # of an input of unknown shape, a dim past 0 leaves the rows
        picks_of_rows = bool(shaped.shape.dims) if shaped.shape is not None else dim is not None and dim >= 1
        picked = shaped.domain or (Domain() if t.shape is None and picks_of_rows else None)
        domain = picked and Domain(picked.size, origin=_origin(named, dim, origin_text), repeats=picks_of_rows)
        return SeqVal((values, TensorVal(shaped.shape, "int64", domain)), ("values", "indices"))
    if s is None or dim is None:  # positions all the same, in a dim of a size not known
        positions = Domain(None, origin=f"positions from {named}() of `{origin_text}`")
        return SeqVal((TensorVal(None, t.dtype), TensorVal(None, "int64", positions)), ("values", "indices"))
    axis = normalize_dim(dim, len(s.dims))
    if axis is None:
        return None
    if not s.dims:  # topk(1, dim=0) / sort() of a 0-d tensor: 0-d values and a 0-d index
        return SeqVal((TensorVal(Shape(()), t.dtype), TensorVal(Shape(()), "int64")), ("values", "indices"))
    dims = list(s.dims)
    if what == "topk":
        dims[axis] = k
    domain = Domain(s.dims[axis], origin=_origin(what, axis, origin_text),
                    ranks_of_positions_in=_sorted_positions(t) if what == "sort" else None)
    return SeqVal(
        (TensorVal(Shape(tuple(dims)), t.dtype), TensorVal(Shape(tuple(dims)), "int64", domain)),
        ("values", "indices"),
    )


# reductions over a dim that return (values, indices) when given the dim
_REDUCED_WITH_INDICES = ("max", "min", "median", "nanmedian", "mode")


def _origin(what: str, axis, text: str) -> str:
    return f"positions from {what}() over dim {axis} of `{text}`"


_RECTIFIERS = ("relu", "relu_")


def _rectified(domain):
    """relu keeps every value >= 0 as it is: the values' range stays; a negative padding value becomes 0."""
    if domain is None or domain.made_float is not None or domain.size is None:
        return None
    return replace(domain, sentinel=None, sentinel_line=None)


def argsort(t, args, kwargs, origin_text):
    s = fixed_shape(t)
    dim = as_int(_arg(args, kwargs, 0, "dim", DimVal(-1)))
    if s is None or dim is None or normalize_dim(dim, len(s.dims)) is None or not s.dims:
        return TensorVal(s, "int64") if s else TensorVal(None, "int64")  # a 0-d tensor's argsort is 0-d
    axis = normalize_dim(dim, len(s.dims))
    return TensorVal(s, "int64", Domain(s.dims[axis], origin=_origin("argsort", axis, origin_text),
                                        ranks_of_positions_in=_sorted_positions(t)))


def _sorted_positions(t) -> Dim:
    """argsort / sort().indices of positions (topk or argsort indices, not ids) rank them among themselves:
    the size of the dim the sorted positions index, which the ranks are no positions in."""
    known = t.domain is not None and not t.domain.category and t.domain.size is not None
    return t.domain.size if known else None


def argmax(t, args, kwargs, origin_text, what="argmax"):
    out = reduce(t, args, kwargs, indices=True)
    if out is None:
        return None
    if out.domain is not None:
        axis = as_int(_arg(args, kwargs, 0, "dim"))
        if axis is None and out.shape is not None and not out.shape.dims:
            return out.with_(domain=replace(out.domain, origin=f"the position `{origin_text}.{what}()` picks {out.domain.origin}"))
        return out.with_(domain=Domain(out.domain.size, origin=_origin(what, axis, origin_text)))
    return out


def _float_number(v) -> Optional[float]:
    """A number written as a float literal (`clamp(min=0.0)`)."""
    return v.value if isinstance(v, Literal) and type(v.value) in (int, float) else None


def cast(t, dtype: Optional[str]) -> TensorVal:
    """A cast keeps the values (and their sign): a bool or int 0/1 cast to float is >= 0 still."""
    return TensorVal(t.shape, dtype, t.domain, non_negative=t.non_negative or dtype in FLOAT_DTYPES and t.dtype == "bool",
                     signed=t.signed, run_starts=t.run_starts)


def to(t, args, kwargs):
    for v in list(args) + [kwargs.get("dtype")]:
        if isinstance(v, Literal) and isinstance(v.value, str) and v.value.startswith("dtype:"):
            return cast(t, v.value[6:])
    if any(isinstance(v, TensorVal) for v in args):
        other = next(v for v in args if isinstance(v, TensorVal))
        return cast(t, other.dtype)
    if args or "dtype" in kwargs:
        return TensorVal(t.shape, None if ("dtype" in kwargs or any(v is None for v in args)) else t.dtype, t.domain)
    return t


# the legacy tensor types `.type()` takes, by name or by its string (`torch.cuda.LongTensor` too)
_LEGACY_TYPES = {"LongTensor": "int64", "IntTensor": "int32", "ShortTensor": "int16", "CharTensor": "int8",
                 "ByteTensor": "uint8", "BoolTensor": "bool", "FloatTensor": "float32", "DoubleTensor": "float64",
                 "HalfTensor": "float16", "BFloat16Tensor": "bfloat16"}


def type_(t, args, kwargs):
    """`.type(torch.LongTensor)` / `.type('torch.LongTensor')` / `.type(torch.long)`: every argument names a type,
    never a device, so one that is not recognised leaves the dtype unknown."""
    if not args and "dtype" not in kwargs:
        return None  # `x.type()` names the type as a string ('torch.FloatTensor'): no tensor
    chosen = args[0] if args else kwargs.get("dtype")
    if isinstance(chosen, Literal) and isinstance(chosen.value, str) and chosen.value.startswith("dtype:"):
        return cast(t, chosen.value[6:])
    name = chosen.value if isinstance(chosen, Literal) and isinstance(chosen.value, str) else getattr(chosen, "name", None)
    legacy = _LEGACY_TYPES.get(name.rsplit(".", 1)[-1]) if isinstance(name, str) and name.startswith("torch.") else None
    return cast(t, legacy) if legacy else TensorVal(t.shape, None, t.domain)


def matmul(a: TensorVal, b: TensorVal):
    """torch.matmul's shapes: a 1-d operand is a row (left) or a column (right) whose added dim is dropped
    again, so [N, K] @ [K] is [N], [K] @ [B, K, M] is [B, M] and [K] @ [K] a 0-d dot product."""
    sa, sb = fixed_shape(a), fixed_shape(b)
    if sa is None or sb is None or not sa.dims or not sb.dims:
        return TensorVal(None, a.dtype)
    if len(sa.dims) == 1 and len(sb.dims) == 1:
        return TensorVal(Shape(()), a.dtype)
    if len(sb.dims) == 1:
        return TensorVal(Shape(sa.dims[:-1]), a.dtype)
    if len(sa.dims) == 1:
        return TensorVal(Shape(sb.dims[:-2] + sb.dims[-1:]), a.dtype)
    batch = broadcast(Shape(sa.dims[:-2]), Shape(sb.dims[:-2]))
    if batch is None:
        return TensorVal(None, a.dtype)
    return TensorVal(Shape(batch.dims + (sa.dims[-2], sb.dims[-1])), a.dtype)


def _kind(dtype: Optional[str]) -> Optional[int]:
    if dtype is None:
        return None
    return 0 if dtype == "bool" else (2 if dtype in FLOAT_DTYPES else 1)


def _promote(a: Optional[str], b: Optional[str]) -> Optional[str]:
    """torch's type promotion between two tensors, where certain."""
    if a is None or b is None:
        return None
    if a == b:
        return a
    ka, kb = _kind(a), _kind(b)
    if ka == kb:
        return None  # e.g. int32 with int64, float16 with float32: wider, not tracked here
    return a if ka > kb else b


def joined_dtype(tensors) -> Optional[str]:
    """The dtype cat/stack gives pieces of these dtypes: torch promotes them (float placeholders beside int64
    ids make the whole sequence float), where every piece's dtype is known."""
    dtype = None
    for k, t in enumerate(tensors):
        if not isinstance(t, TensorVal) or t.dtype is None:
            return None
        dtype = t.dtype if k == 0 else _promote(dtype, t.dtype)
        if dtype is None:
            return None
    return dtype


def _with_scalar(dtype: Optional[str], scalar) -> Optional[str]:
    """Tensor op Python scalar: a float scalar makes ints float; an int scalar makes bool int64."""
    if dtype is None:
        return None
    if isinstance(scalar, Literal) and isinstance(scalar.value, bool):
        return dtype
    if isinstance(scalar, Literal) and isinstance(scalar.value, float):
        return dtype if dtype in FLOAT_DTYPES else "float32"
    if isinstance(scalar, DimVal):
        return "int64" if dtype == "bool" else dtype
    return dtype if dtype in FLOAT_DTYPES else None  # unknown scalar: could be a float


def _grown_by_unknown(shape) -> bool:
    """Size-1 dims an unknown operand may broadcast, or no dims at all (`x / self.temp` with a 0-d
    temperature is x's shape, not the temperature's)."""
    return shape is not None and (not shape.dims and not shape.variadic or any(value(d) == 1 for d in shape.dims))


def binary(a, b, op: str):
    """Elementwise arithmetic and comparisons with broadcasting; values are no longer positions."""
    ta, tb = isinstance(a, TensorVal), isinstance(b, TensorVal)
    if not ta and not tb:
        return None
    if ta and tb:
        shape = broadcast(a.shape, b.shape)
    elif (b if ta else a) is None and _grown_by_unknown(a.shape if ta else b.shape):
        shape = None  # an unknown operand may be a tensor that broadcasts the size-1 dims
    else:
        shape = a.shape if ta else b.shape
        if (b if ta else a) is None and shape is not None and shape.dims and not shape.guessed:
            # the unknown operand may be a scalar or a tensor of more dims (`gain(x) * discounts`): the
            # known shape is kept, its rank marked a guess (no proof of 'too many indices')
            shape = replace(shape, guessed=True)
    if op in ("<", ">", "<=", ">=", "==", "!="):
        return TensorVal(shape, "bool")
    if ta and tb:
        dtype = _promote(a.dtype, b.dtype)
    else:
        dtype = _with_scalar(a.dtype if ta else b.dtype, b if ta else a)
    if op == "/":
        dtype = true_division(a, b, dtype)
    elif op in ("&", "|", "^") and ta and tb and a.dtype == b.dtype:
        dtype = a.dtype
    return TensorVal(shape, dtype)


def cat(tensors: List[object], dim: Optional[int], stack: bool):
    if not tensors or not all(isinstance(t, TensorVal) or t is None for t in tensors):
        return TensorVal(None)
    if None in tensors or any(fixed_shape(t) is None for t in tensors):
        return _cat_partly_known(tensors, dim, stack)
    shapes = [fixed_shape(t) for t in tensors]
    dtype = joined_dtype(tensors)
    if None in shapes or dim is None or len({len(s.dims) for s in shapes}) != 1:
        return TensorVal(None, dtype)
    rank = len(shapes[0].dims)
    if stack:
        axis = normalize_dim(dim, rank + 1)
        if axis is None:
            return None
        base = [shapes[0].dims[k] if all(s.dims[k] == shapes[0].dims[k] for s in shapes) else None for k in range(rank)]
        base.insert(axis, len(tensors))
        return TensorVal(Shape(tuple(base)), dtype)
    axis = normalize_dim(dim, rank)
    if axis is None or rank == 0:  # torch refuses to cat 0-d tensors
        return None
    dims = []
    for k in range(rank):
        if k == axis:
            dims.append(_sum_dims([s.dims[k] for s in shapes]))
        else:
            same = all(s.dims[k] == shapes[0].dims[k] for s in shapes)
            dims.append(shapes[0].dims[k] if same else None)
    return TensorVal(Shape(tuple(dims)), dtype)


def _cat_partly_known(tensors: List[object], dim: Optional[int], stack: bool) -> TensorVal:
    """torch.cat([edge_index, loops], 1) with edge_index unknown: every piece has the known pieces' sizes
    off the joined axis (torch requires it), so those sizes and the rank are certain; the joined size
    is not. (A legacy empty 1-d piece is skipped by torch: the others' sizes hold all the same.)"""
    known = [fixed_shape(t) for t in tensors if isinstance(t, TensorVal) and fixed_shape(t) is not None]
    dtype = joined_dtype(tensors)
    if not known or dim is None or len({len(s.dims) for s in known}) != 1:
        return TensorVal(None, dtype)
    rank = len(known[0].dims)
    base = [known[0].dims[k] if all(s.dims[k] == known[0].dims[k] for s in known) else None for k in range(rank)]
    axis = normalize_dim(dim, rank + 1 if stack else rank)
    if axis is None or not stack and axis >= rank:  # cat of 0-d pieces: torch raises, nothing to say here
        return TensorVal(None, dtype)
    if stack:
        base.insert(axis, len(tensors))
    else:
        base[axis] = None
    return TensorVal(Shape(tuple(base)), dtype)


class Repeated:
    """A list whose elements all have one abstract value (a list comprehension), of a `length` (a Dim:
    `random.sample(buffer, batch_size)` holds batch_size items) or of unknown length (None)."""

    def __init__(self, element, length: Dim = None):
        self.element = element
        self.length = length

    def __eq__(self, other):  # two runs of the same element are the same fact (joins, memo keys)
        return isinstance(other, Repeated) and other.element == self.element and other.length == self.length

    def __hash__(self):
        return hash(("Repeated", self.element, self.length))

    def unpacked(self, count: int) -> list:
        """What each of `count` names gets from `a, b = items`: the one element (RowsOnce tells its first apart)."""
        return [self.element] * count


def positions_per_dim(mask):
    """`torch.where(mask)`, `mask.nonzero(as_tuple=True)`: one int64 vector of positions per dim of the mask;
    where its rank is unknown, a tuple of such vectors of unknown length (so `torch.stack(torch.where(m), 1)`
    is [N, ndim]: 2-d whatever the mask)."""
    found = position_tuples.per_dim(mask)
    if found is None and isinstance(mask, TensorVal):
        return Repeated(TensorVal(Shape((None,)), "int64"))
    return found


def _flat_data_shape(data) -> Optional[Shape]:
    """[n] for a tuple/list of n Python numbers (sizes from `.size(0)` included); None otherwise."""
    if not isinstance(data, SeqVal) or not data.items:
        return None
    numbers = all(isinstance(v, DimVal) or (isinstance(v, Literal) and type(v.value) in (int, float)) for v in data.items)
    return Shape((len(data.items),)) if numbers else None


def unbound(t: TensorVal, args, kwargs) -> TensorVal:
    """One piece of `t.unbind(dim)`: t without that dim, same dtype (`x, y, z = pts.unbind(-1)`)."""
    s = fixed_shape(t)
    dim = as_int(_arg(args, kwargs, 0, "dim", DimVal(0)))
    axis = normalize_dim(dim, len(s.dims)) if s is not None and s.dims and dim is not None else None
    if axis is None:  # (torch refuses to unbind a 0-d tensor)
        return TensorVal(None, t.dtype)
    return TensorVal(Shape(s.dims[:axis] + s.dims[axis + 1:]), t.dtype)


def rows(t: TensorVal, count: int) -> Optional[Repeated]:
    """`row, col = edge_index`: unpacking iterates dim 0, each piece is one row (its values too).
    None when dim 0 is known to hold another number of rows (torch raises) or there is no dim 0."""
    s = fixed_shape(t)
    if s is None:
        return Repeated(TensorVal(None, t.dtype, t.domain)) if t.dtype or t.domain else None
    if not s.dims or value(s.dims[0]) not in (None, count):
        return None
    return Repeated(TensorVal(Shape(s.dims[1:]), t.dtype, t.domain))


def value_kind(domain: Optional[Domain]) -> Optional[Domain]:
    """What a domain says of each value alone, whatever tensor holds it: a sentinel put in, a float made by
    the code, ints rounded through a low precision (and where each fix goes). It holds for a stack of such
    tensors, or a batch of such items, where positions and distinctness no longer do."""
    if domain is None:
        return None
    kept = Domain(sentinel=domain.sentinel, sentinel_line=domain.sentinel_line, made_float=domain.made_float,
                  rounded=domain.rounded, made_float_at=domain.made_float_at, rounded_at=domain.rounded_at)
    return None if kept == Domain() else kept


def stacked_domain(domain: Optional[Domain]) -> Optional[Domain]:
    """What holds of the values of several like tensors stacked (a batch of items): each value's range and
    kind, but not that they are distinct, nor a ranking among one tensor's values."""
    if domain is None:
        return None
    return replace(domain, repeats=True, ranks_of_positions_in=None, distinct_rows=domain.distinct_rows or not domain.repeats)


def cat_repeated(element: TensorVal, dim: Optional[int], stack: bool, length: Dim = None):
    """torch.cat / torch.stack of a list of like tensors, `length` of them when known: stacked, the new dim
    is the length; concatenated, the dim grows to length times the element's size."""
    s = fixed_shape(element)
    kind = stacked_domain(element.domain)
    if s is None or dim is None:
        return TensorVal(None, element.dtype, kind)
    rank = len(s.dims) + (1 if stack else 0)
    axis = normalize_dim(dim, rank)
    if axis is None or rank == 0:  # torch refuses to cat 0-d tensors
        return None
    dims = list(s.dims)
    if stack:
        dims.insert(axis, length)
    else:  # n pieces of size k: n * k when both are known, the piece's own size for one piece
        n, k = value(length), value(dims[axis])
        dims[axis] = length if k == 1 else dims[axis] if n == 1 else n * k if n is not None and k is not None else None
    return TensorVal(Shape(tuple(dims)), element.dtype, kind)


def _sum_dims(dims: List[Dim]) -> Dim:
    vals = [value(d) for d in dims]
    if None not in vals:
        return sum(vals)
    if len(dims) > 1 and all(isinstance(d, Sym) and d.name == dims[0].name for d in dims):
        return symbolic.product([len(dims), dims[0]])  # cat of k pieces of M rows: `k*M`
    return symbolic.total(dims)  # pieces of N and M rows: `M + N`


MethodFn = Callable[[TensorVal, list, dict], object]
SHAPE_METHODS: Dict[str, MethodFn] = {
    "unsqueeze": unsqueeze, "unsqueeze_": unsqueeze,
    "squeeze": squeeze, "squeeze_": squeeze,
    "view": view, "reshape": view,
    "expand": expand, "broadcast_to": expand,
    "expand_as": expand_as,
    "repeat": repeat,
    "repeat_interleave": repeat_interleave,
    "permute": permute,
    "transpose": transpose, "swapaxes": transpose, "swapdims": transpose,
    "t": t_,
    "narrow": narrow,
    "flatten": flatten,
    "unflatten": unflatten,
    "movedim": movedim, "moveaxis": movedim,
    "to": to, "type": type_, "type_as": to,
}


_COMPARISONS = ("eq", "ne", "gt", "ge", "lt", "le")


def _rotated(t: TensorVal, args: list, kwargs: dict) -> Optional[Shape]:
    """x.rot90(k, dims): an odd number of quarter turns swaps the two dims' sizes, an even one keeps them."""
    s = fixed_shape(t)
    k = as_int(_arg(args, kwargs, 0, "k")) if _arg(args, kwargs, 0, "k") is not None else 1
    plane = _arg(args, kwargs, 1, "dims")
    pair = [as_int(d) for d in plane.items] if isinstance(plane, SeqVal) else [0, 1] if plane is None else None
    if s is None or k is None or pair is None or len(pair) != 2 or None in pair \
            or not all(-len(s.dims) <= d < len(s.dims) for d in pair):
        return None
    dims = list(s.dims)
    a, b = (d % len(dims) for d in pair)
    if k % 2:
        dims[a], dims[b] = dims[b], dims[a]
    return Shape(tuple(dims))


def apply_method(name: str, t: TensorVal, args: list, kwargs: dict, text: str):
    """Result of tensor.<name>(*args, **kwargs), or None when unknown. A rank that was a guess (an unknown
    operand beside a known one) stays a guess in what the op makes of it."""
    result = _applied(name, t, args, kwargs, text)
    if t.shape is not None and t.shape.guessed:
        return _guessed(result)
    return result


def _guessed(result):
    if isinstance(result, TensorVal) and result.shape is not None and not result.shape.guessed:
        return result.with_(shape=replace(result.shape, guessed=True))
    if isinstance(result, SeqVal):  # (values, indices) of a reduction
        return SeqVal(tuple(_guessed(item) for item in result.items), result.names)
    return result


def _applied(name: str, t: TensorVal, args: list, kwargs: dict, text: str):
    if name in SHAPE_METHODS:
        return signs.kept(t, SHAPE_METHODS[name](t, args, kwargs))  # a view, a copy or a cast keeps the values' sign
    if name in _KEEP:
        return t
    if name in CAST_METHODS:
        return cast(t, CAST_METHODS[name])
    if name in PERMUTING:  # the same values in another order: what holds of each of them still holds
        shape = _rotated(t, args, kwargs) if name == "rot90" else t.shape
        return TensorVal(shape, t.dtype, t.domain, interval=t.interval, non_negative=t.non_negative, signed=t.signed)
    if name in TRUE_DIVISION and kwargs.get("rounding_mode") in (None, Literal(None)):
        return binary(t, _arg(args, kwargs, 0, "other"), "/")
    if name in _ARITHMETIC and (args or _ARITHMETIC[name] in kwargs) and (len(args) <= 1 or name in ("add", "sub")):
        # x.mul(y) broadcasts like x * y, and ids.mul(0.5) is float
        return binary(t, _arg(args, kwargs, 0, _ARITHMETIC[name]), "*")
    if name in _ELEMENTWISE:
        dtype = t.dtype if name not in ("log_softmax", "softmax") or t.dtype in FLOAT_DTYPES else None
        if name in _FLOAT_RESULT and dtype is not None and dtype not in FLOAT_DTYPES:
            dtype = "float32"  # torch.exp(ids): integers and bools give the default float dtype
        elif name == "square" and dtype == "bool":
            dtype = "int64"
        return signs.after_op(name, t, TensorVal(t.shape, dtype, _rectified(t.domain) if name in _RECTIFIERS else None))
    if name in _REDUCE:
        reduced = reduce(t, args, kwargs, name=name)
        if t.most_rank is not None and isinstance(reduced, TensorVal) and reduced.shape is None:
            reduced = reduced.with_(most_rank=t.most_rank)  # a reduction never adds a dim
        if name in NORMS and isinstance(reduced, TensorVal):
            return reduced.with_(non_negative=True, signed=False)  # a norm is never below 0
        return signs.kept(t, reduced) if name in _SIGN_KEEPING_REDUCTIONS else reduced
    if name in _COMPARISONS and len(args) == 1 and not kwargs:
        return binary(t, args[0], "==")  # ids.ne(pad): a bool mask, broadcast like `ids != pad`
    if name in ("cumsum", "cumprod"):
        dtype = "int64" if t.dtype is not None and t.dtype not in FLOAT_DTYPES else t.dtype
        return TensorVal(t.shape, asked_dtype(kwargs, dtype))
    if name in ("argmax", "argmin"):
        return argmax(t, args, kwargs, text, name)
    if name == "unbind":
        return Repeated(unbound(t, args, kwargs))
    if name == "select" and len(args) == 2 and not kwargs:  # x.select(dim, k): x[..., k, ...], that dim gone
        return unbound(t, args[:1], {})
    if name in ("topk", "sort", "kthvalue") or name in _REDUCED_WITH_INDICES:
        return with_indices(t, args, kwargs, name, text)
    if name == "argsort":
        return argsort(t, args, kwargs, text)
    if name == "matmul" and args and isinstance(args[0], TensorVal):
        return matmul(t, args[0])
    if name == "matmul":
        return TensorVal(None, t.dtype)  # torch refuses operands of two dtypes
    if name in ("clamp", "clamp_", "clip", "clamp_min", "clamp_min_"):
        low = as_int(_arg(args, kwargs, 0, "min", None)) if name.startswith(("clamp", "clip")) else None
        floor_at = low if low is not None else _float_number(_arg(args, kwargs, 0, "min", None))
        # ids clamped are still ids; a clamp at a floor >= 0 leaves no value below 0
        return TensorVal(t.shape, t.dtype, t.domain, non_negative=t.non_negative or (floor_at is not None and floor_at >= 0),
                         signed=t.signed and not (floor_at is not None and floor_at >= 0))
    if name in ("masked_fill", "masked_fill_", "triu", "tril", "triu_", "tril_"):
        return TensorVal(t.shape, t.dtype, t.domain)  # ids with padding masked or zeroed are still ids
    if name in ("size", "shape"):
        return size_of(t, args)
    if name == "new" and not kwargs:
        # the legacy `x.new(*sizes)`: uninitialised, x's dtype; `x.new(x.size())` alike. A list of written ints is
        # data (`x.new([1, 2])`), whose shape is not read here
        sizes = list(args[0].items) if len(args) == 1 and isinstance(args[0], SeqVal) else list(args)
        if sizes and all(isinstance(v, DimVal) for v in sizes) and (len(args) > 1 or not isinstance(args[0], SeqVal)
                                                                     or not any(isinstance(v.dim, int) for v in sizes)):
            return TensorVal(Shape(tuple(v.dim for v in sizes)), t.dtype)
        return TensorVal(None, t.dtype)
    if name in ("new_zeros", "new_ones", "new_empty", "new_full", "new_tensor"):
        if name == "new_tensor":  # x.new_tensor((B, 1)) is a 1-d tensor holding B and 1, not a [B, 1] one
            return TensorVal(_flat_data_shape(args[0]) if args else None, t.dtype)
        sizes = args[:1] if name == "new_full" else args
        if "size" in kwargs:
            sizes = [kwargs["size"]]
        sizes = _sizes(sizes) if sizes else None
        dims = [as_dim(v) for v in sizes] if sizes else None
        dtype = kwargs.get("dtype")
        known = dtype.value[6:] if isinstance(dtype, Literal) and isinstance(dtype.value, str) and dtype.value.startswith("dtype:") else None
        filled = constant_fills.fill(name, kwargs)
        return TensorVal(Shape(tuple(dims)) if dims else None, known if "dtype" in kwargs else t.dtype, filled=filled)
    if name == "multinomial":
        return multinomial(t, args, kwargs, text)
    if name in ("nonzero", "argwhere"):
        as_tuple = kwargs.get("as_tuple")
        if name == "nonzero" and not (isinstance(as_tuple, Literal) and as_tuple.value is False) and "as_tuple" in kwargs:
            return positions_per_dim(t)  # nonzero(as_tuple=True): a tuple of vectors
        s = fixed_shape(t)
        return TensorVal(Shape((None, len(s.dims) if s else None)), "int64")  # always [count, rank]
    if name in ("bucketize",):
        return TensorVal(t.shape, "int64")
    if name in ("dim", "ndimension"):
        s = fixed_shape(t)
        return DimVal(len(s.dims)) if s else None
    if name in ("numel", "nelement"):  # `if self.alpha.numel() == 2:` with a known shape is decided
        s = fixed_shape(t)  # [N] holds N elements, [B, T] `B*T`: the size a flattened copy has
        return DimVal(symbolic.product(list(s.dims)) if s else None)
    if name in FURTHER_METHODS:
        return FURTHER_METHODS[name](t, args, kwargs)
    if op_census.active is not None:  # no entry for this op (benchmarks/op_coverage.py)
        op_census.active.unmatched = name
    return None


def multinomial(t, args, kwargs, text):
    """torch.multinomial(probs [.., C], n): [.., n] int64 positions in the last dim."""
    s = fixed_shape(t)
    n = as_dim(_arg(args, kwargs, 0, "num_samples"))
    if s is None or not s.dims or n is None:
        return TensorVal(None, "int64")
    replacement = _arg(args, kwargs, 1, "replacement")
    drawn_again = isinstance(replacement, Literal) and replacement.value is True  # with replacement: draws repeat
    kind = "samples drawn with replacement" if drawn_again else "samples"
    return TensorVal(Shape(s.dims[:-1] + (n,)), "int64", Domain(
        s.dims[-1], origin=f"{kind} from multinomial() over the last dim of `{text}`", repeats=drawn_again))


def size_of(t: TensorVal, args: list):
    """x.size(d) / x.shape: a rank that is a guess (an unknown operand beside a known one may add leading dims)
    gives no tuple, and of its dims only those counted from the end."""
    s = t.shape
    if args:
        d = as_int(args[0])
        if s is None or d is None or s.guessed and d >= 0:
            return DimVal(None)  # x.size(d) is one int, whatever its value
        return DimVal(s.at(d))
    if s is None or s.variadic or s.guessed:
        return None
    return SeqVal(tuple(DimVal(d) for d in s.dims))


def index_tensor(t: TensorVal, key) -> Optional[TensorVal]:
    """Basic indexing: ints drop a dim, slices keep (or shrink) it, None adds a 1, ... fills."""
    s = fixed_shape(t)
    items = list(key.items) if isinstance(key, SeqVal) and not key.names else [key]
    if s is None:
        return TensorVal(None, t.dtype, t.domain)
    if len(items) == 1 and isinstance(items[0], TensorVal):
        return lookup(t, items[0])
    tensors = [k for k, i in enumerate(items) if isinstance(i, TensorVal)]
    if len(tensors) == 1 and all(isinstance(i, SliceVal) or isinstance(i, Literal) and i.value is Ellipsis
                                 for k, i in enumerate(items) if k != tensors[0]):
        return _one_tensor_among_slices(t, s, items, tensors[0])
    if any(isinstance(i, TensorVal) or (i is not None and not isinstance(i, (DimVal, Literal, SliceVal))) for i in items):
        return _several_keys(t, s, items)
    if any(i is None for i in items):
        return TensorVal(None, t.dtype, t.domain)
    consumed = sum(1 for i in items if isinstance(i, (DimVal, SliceVal)))
    ellipses = [k for k, i in enumerate(items) if isinstance(i, Literal) and i.value is Ellipsis]
    if len(ellipses) > 1 or consumed > len(s.dims):
        return None
    if ellipses:
        k = ellipses[0]
        fill = [SliceVal(None, None, None)] * (len(s.dims) - consumed)
        items = items[:k] + fill + items[k + 1:]
    else:
        items = items + [SliceVal(None, None, None)] * (len(s.dims) - consumed)
    dims: List[Dim] = []
    axis = 0
    shifts = []
    for i in items:
        if isinstance(i, Literal) and i.value is None:
            dims.append(1)
        elif isinstance(i, DimVal):
            axis += 1
        elif isinstance(i, SliceVal):
            if i.one_end() is not None:
                shifts.append((len(dims), i.one_end()))
            dims.append(i.apply(s.dims[axis]))
            axis += 1
        else:
            return TensorVal(None, t.dtype, t.domain)
    return TensorVal(Shape(tuple(dims)), t.dtype, t.domain, shift=shifts[0] if len(shifts) == 1 else None)


def _one_tensor_among_slices(t: TensorVal, s: Shape, items: list, at: int) -> TensorVal:
    """`x[:, keep]`, `x[..., idx]`: one index tensor beside slices. Its dims take the place of the dims it
    indexes (a bool mask of rank r: r dims become one of an unknown count; integer ids: one dim becomes the
    ids' dims), and each slice keeps its own dim."""
    key, domain = items[at], _picked(t.domain)
    k = fixed_shape(key)
    ellipses = [n for n, i in enumerate(items) if isinstance(i, Literal)]
    if k is None or len(ellipses) > 1 or key.dtype not in ("bool", "int64", "int32"):
        return TensorVal(None, t.dtype, domain)
    taken = len(k.dims) if key.dtype == "bool" else 1
    spare = len(s.dims) - taken - (len(items) - 1 - len(ellipses))
    if spare < 0:
        return TensorVal(None, t.dtype, domain)
    expanded = []
    for i in items:  # `...` stands for the dims no other item takes; missing trailing items are whole dims
        expanded.extend([SliceVal(None, None, None)] * spare if isinstance(i, Literal) else [i])
    if not ellipses:
        expanded.extend([SliceVal(None, None, None)] * spare)
    dims: List[Dim] = []
    axis = 0
    for i in expanded:
        if isinstance(i, TensorVal):
            indexed = s.dims[axis:axis + taken]
            if key.dtype == "bool" and any(must_differ(a, b) for a, b in zip(indexed, k.dims)):
                return TensorVal(None, t.dtype, domain)  # torch raises; subscript_rank says where
            dims.extend([None] if key.dtype == "bool" else list(k.dims))
            axis += taken
        else:
            dims.append(i.apply(s.dims[axis]))
            axis += 1
    return TensorVal(Shape(tuple(dims)), t.dtype, domain)


def _several_keys(t: TensorVal, s: Shape, items: list) -> TensorVal:
    """`x[ids0, ids1]`, `x[0, :, idx]`, `x[:, None, idx]`, `x[[0, 1], idx]`: torch selects the ints first, None
    adds a dim of 1, and the tensor keys (integer ids, lists of ints, bool masks as their True positions)
    broadcast to one shape. That shape takes the place of the dims they index when they stand together, and
    comes first when a slice or None parts them (`x[:, i, :, 0]` of [5, 6, 7, 8] is [5, 2, 7])."""
    unknown = TensorVal(None, t.dtype, _picked(t.domain))
    kept, keys = [], []  # kept: the items once the ints have selected; keys: each advanced key's shape
    for i in items:
        if isinstance(i, DimVal) or isinstance(i, Literal) and type(i.value) is int:
            kept.append("int")
        elif isinstance(i, Literal) and i.value in (None, Ellipsis) or isinstance(i, SliceVal):
            kept.append(i)  # (a key item whose value is not known is no `None`: it may be a tensor of any rank)
        elif isinstance(i, TensorVal) and i.dtype in ("int64", "int32", "bool") and fixed_shape(i) is not None:
            taken = len(fixed_shape(i).dims) if i.dtype == "bool" else 1
            kept.append(("key", taken))
            keys.append(Shape((None,)) if i.dtype == "bool" else fixed_shape(i))
        elif isinstance(i, SeqVal) and not i.names and i.items and all(type(v) is DimVal or isinstance(v, Literal)
                                                                   and type(v.value) is int for v in i.items):
            kept.append(("key", 1))
            keys.append(Shape((len(i.items),)))
        else:
            return unknown
    ellipses = [n for n, i in enumerate(kept) if isinstance(i, Literal) and i.value is Ellipsis]
    consumed = sum(i[1] if isinstance(i, tuple) else 1 for i in kept if isinstance(i, (tuple, SliceVal)) or i == "int")
    if not keys or len(ellipses) > 1 or consumed > len(s.dims):
        return unknown
    spare = len(s.dims) - consumed
    expanded = []
    for i in kept:
        expanded.extend([SliceVal(None, None, None)] * spare if isinstance(i, Literal) and i.value is Ellipsis else [i])
    if not ellipses:
        expanded.extend([SliceVal(None, None, None)] * spare)
    joint = keys[0]
    for k in keys[1:]:
        if any(must_differ(a, b) and 1 not in (value(a), value(b)) for a, b in zip(joint.dims[::-1], k.dims[::-1])):
            return unknown  # torch raises: 'shape mismatch: indexing tensors could not be broadcast together'
        joint = broadcast(joint, k)
    if joint is None:
        return unknown
    dims: List[Dim] = []
    axis, at, places = 0, None, []
    for i in expanded:
        if i == "int":
            axis += 1
        elif isinstance(i, Literal):
            dims.append(1)
        elif isinstance(i, tuple):
            places.append(len(dims))
            at = len(dims) if at is None else at
            axis += i[1]
        else:
            dims.append(i.apply(s.dims[axis]))
            axis += 1
    together = places == [places[0]] * len(places)  # no dim kept between two keys
    dims[at if together else 0:at if together else 0] = list(joint.dims)
    return TensorVal(Shape(tuple(dims)), t.dtype, _picked(t.domain))


def lookup(t: TensorVal, key: TensorVal) -> TensorVal:
    """`table[ids]` with one integer tensor: a row of table per id, ids' shape then table's other dims;
    `x[mask]` with a bool mask: one row per True, a count unknown here."""
    s, k = fixed_shape(t), fixed_shape(key)
    domain = _picked(t.domain)
    if s is None or k is None or not s.dims:
        return TensorVal(None, t.dtype, domain)
    if key.dtype in ("int64", "int32"):
        return TensorVal(Shape(k.dims + s.dims[1:]), t.dtype, domain)
    if key.dtype == "bool" and len(k.dims) <= len(s.dims):
        return TensorVal(Shape((None,) + s.dims[len(k.dims):]), t.dtype, domain)
    if key.dtype is None and not s.variadic and not k.variadic:  # ids or a mask: as many dims as either makes
        return TensorVal(None, t.dtype, domain, most_rank=max(len(k.dims) + len(s.dims) - 1, len(s.dims) - len(k.dims) + 1))
    return TensorVal(None, t.dtype, domain)


def _picked(domain: Optional[Domain]) -> Optional[Domain]:
    """The values a tensor key picks: still within the table's bounds, but a padding value the table
    holds is read only if the key reaches its rows (`table[split + 1]` skips a padding row 0)."""
    if domain is None or domain.sentinel is None:
        return domain
    return replace(domain, sentinel=None, sentinel_line=None)


def whole_slice(item) -> bool:
    """An evaluated `:` with no bounds and no step."""
    return isinstance(item, SliceVal) and item.lower is None and item.upper is None and item.step is None


def new_axes(key) -> Optional[List[bool]]:
    """For an evaluated key that adds dims and keeps every value (`[:, :, None]`, `[None]`): per item, whether
    it is a new dim (`None`); None for any other key."""
    items = key.items if isinstance(key, SeqVal) and not key.names else (key,)
    added = [isinstance(k, Literal) and k.value is None for k in items]
    return added if any(added) and all(a or whole_slice(k) for a, k in zip(added, items)) else None


class SliceVal:
    def __init__(self, lower, upper, step):
        self.lower, self.upper, self.step = lower, upper, step
        self.span = None  # DimVal: how far apart the code's bounds are, whatever they are (`s : s + k`)
        self.syntax = None  # the ast.Slice the code wrote (`a:b`, or `slice(a, b)`'s arguments), where known

    def one_end(self) -> Optional[str]:
        """'drop_last' for [:-1], 'drop_first' for [1:]: the two halves of the next-token shift."""
        if self.step is not None:
            return None
        if self.lower is None and as_int(self.upper) == -1:
            return "drop_last"
        if as_int(self.lower) == 1 and self.upper is None:
            return "drop_first"
        return None

    def apply(self, d: Dim) -> Dim:
        if whole_slice(self):
            return d
        if self.span is not None and self.span.dim is not None and as_int(self.lower) is None:
            return self.span.dim  # a window of k entries at an offset the code computes
        n = value(d)
        bounds = [as_int(v) if v is not None else None for v in (self.lower, self.upper, self.step)]
        if n is None:
            return self._named(d, bounds)
        if any(v is not None and b is None for v, b in zip((self.lower, self.upper, self.step), bounds)):
            return None  # a bound that is not a known int: the length is unknown
        return len(range(n)[slice(*bounds)])

    def _named(self, d: Dim, bounds) -> Dim:
        """x[:-k] / x[k:] of a named dim: `T-k`."""
        lower, upper, step = bounds
        if step is not None or (self.lower is not None and lower is None) or (self.upper is not None and upper is None):
            return None
        if lower is None and upper is not None and upper < 0:
            return symbolic.minus(d, -upper)
        if upper is None and lower is not None and lower > 0:
            return symbolic.minus(d, lower)
        return None


# the table's further entries, apply_method's last resort: their modules (further_ops, python_results) build
# on this one's functions, so each adds its entries here as it loads (call_eval loads both)
FURTHER_METHODS: Dict[str, Callable] = {}
