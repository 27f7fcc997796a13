"""Entries of the op table beyond tensor_ops' core: float-valued math, in-place arithmetic and random fills,
matrix products, and ops that tile, window, deduplicate or count. Each takes the receiver (the first
input of the function form) and the other arguments, and returns the result's abstract value, or an
unknown one (None, or a TensorVal without shape or dtype) wherever torch's answer is not certain."""
from __future__ import annotations

from math import comb
from typing import Optional

from ..dims import Shape, broadcast, normalize_dim, value
from . import symbolic
from . import tensor_ops as ops
from .values import DimVal, Literal, SeqVal, TensorVal
from .tensor_ops import fixed_shape

FLOATS = ops.FLOAT_DTYPES

# elementwise math whose result is a float: an integer or bool input gives the default float32
FLOAT_VALUED = {"sin", "cos", "tan", "asin", "acos", "atan", "arcsin", "arccos", "arctan", "sinh", "cosh",
                "asinh", "acosh", "atanh", "arcsinh", "arccosh", "arctanh", "log2", "log10", "exp2", "erfc", "erfinv",
                "lgamma", "digamma", "sinc", "deg2rad", "rad2deg", "i0"}
# two operands, broadcast, a float result
FLOAT_VALUED_PAIRS = {"atan2", "arctan2", "xlogy", "copysign"}
# in-place ops: the receiver's shape and dtype, whatever the operands (values replaced)
IN_PLACE = {"add_", "sub_", "mul_", "copy_", "masked_scatter_", "neg_", "abs_", "floor_", "ceil_", "round_",
            "trunc_", "sign_", "pow_", "remainder_", "fmod_", "clamp_min_", "clamp_max_", "bitwise_and_",
            "bitwise_or_", "bitwise_xor_", "logical_not_", "logical_and_", "logical_or_", "random_", "bernoulli_",
            "addcmul_", "square_", "cumsum_", "cumprod_"}
# in-place ops that write floats: an integer receiver raises ("result type Float can't be cast to Long")
FLOAT_IN_PLACE = {"div_", "sqrt_", "rsqrt_", "sin_", "cos_", "tanh_", "exponential_", "cauchy_", "log_normal_",
                  "geometric_", "reciprocal_", "lerp_", "addcdiv_", "log1p_", "expm1_"}


def _dim(v) -> Optional[int]:
    return ops.as_int(v)


def float_valued(t: TensorVal, args, kwargs):
    dtype = t.dtype if t.dtype in FLOATS else ("float32" if t.dtype is not None else None)
    return TensorVal(t.shape, dtype)


def float_valued_pair(t: TensorVal, args, kwargs):
    other = ops._arg(args, kwargs, 0, "other")
    joined = ops.binary(t, other, "+")
    if not isinstance(joined, TensorVal):
        return None
    dtype = joined.dtype if joined.dtype in FLOATS else ("float32" if joined.dtype is not None else None)
    return TensorVal(joined.shape, dtype)


def remainder(t: TensorVal, args, kwargs):
    """`x % n` spelled as a call: broadcast, promoted like the operator."""
    return ops.binary(t, ops._arg(args, kwargs, 0, "other"), "%")


def bitwise(t: TensorVal, args, kwargs):
    return ops.binary(t, ops._arg(args, kwargs, 0, "other"), "&")


def float_in_place(t: TensorVal, args, kwargs):
    rounding = kwargs.get("rounding_mode")
    if t.dtype is not None and t.dtype not in FLOATS and not (isinstance(rounding, Literal) and rounding.value):
        return None  # torch raises: a float result cannot be written into an integer tensor
    return TensorVal(t.shape, t.dtype)


def mm(t: TensorVal, args, kwargs):
    """[n, m] @ [m, p]: [n, p]; both operands must be 2-d and of one dtype."""
    s, o = fixed_shape(t), fixed_shape(ops._arg(args, kwargs, 0, "mat2"))
    if s is None or len(s.dims) != 2:
        return TensorVal(None, t.dtype)
    last = o.dims[1] if o is not None and len(o.dims) == 2 else None
    return TensorVal(Shape((s.dims[0], last)), t.dtype)


def bmm(t: TensorVal, args, kwargs):
    """[b, n, m] @ [b, m, p]: [b, n, p]."""
    s, o = fixed_shape(t), fixed_shape(ops._arg(args, kwargs, 0, "mat2"))
    if s is None or len(s.dims) != 3:
        return TensorVal(None, t.dtype)
    last = o.dims[2] if o is not None and len(o.dims) == 3 else None
    return TensorVal(Shape((s.dims[0], s.dims[1], last)), t.dtype)


def mv(t: TensorVal, args, kwargs):
    s = fixed_shape(t)
    return TensorVal(Shape((s.dims[0],)) if s is not None and len(s.dims) == 2 else None, t.dtype)


def dot(t: TensorVal, args, kwargs):
    """torch.dot of two vectors: 0-d. torch refuses any other rank, while NumPy's and SciPy's `a.dot(b)` (which
    read the same) multiply matrices: only two known vectors give the 0-d result."""
    other = ops._arg(args, kwargs, 0, "tensor")
    s, o = fixed_shape(t), fixed_shape(other) if isinstance(other, TensorVal) else None
    if s is None or o is None or len(s.dims) != 1 or len(o.dims) != 1:
        return TensorVal(None, t.dtype)
    return TensorVal(Shape(()), t.dtype)


def outer(t: TensorVal, args, kwargs):
    """[n] outer [m]: [n, m], promoted."""
    other = ops._arg(args, kwargs, 0, "vec2")
    s, o = fixed_shape(t), fixed_shape(other)
    if s is None or len(s.dims) != 1:
        return TensorVal(None, None)
    last = o.dims[0] if o is not None and len(o.dims) == 1 else None
    dtype = ops._promote(t.dtype, other.dtype) if isinstance(other, TensorVal) else None
    return TensorVal(Shape((s.dims[0], last)), dtype)


def cdist(t: TensorVal, args, kwargs):
    """x1 [.., P, M], x2 [.., R, M]: [.., P, R], the batch dims broadcast."""
    other = ops._arg(args, kwargs, 0, "x2")
    s, o = fixed_shape(t), fixed_shape(other)
    if s is None or o is None or len(s.dims) < 2 or len(o.dims) < 2:
        return TensorVal(None, t.dtype)
    batch = broadcast(Shape(s.dims[:-2]), Shape(o.dims[:-2]))
    if batch is None:
        return TensorVal(None, t.dtype)
    return TensorVal(Shape(batch.dims + (s.dims[-2], o.dims[-2])), t.dtype)


def tile(t: TensorVal, args, kwargs):
    """tile(dims): repeat, with missing leading repeats taken as 1 (tile((2,)) of [3, 4] is [3, 8])."""
    sizes = ops._sizes(args if args else ([kwargs["dims"]] if "dims" in kwargs else []))
    s = fixed_shape(t)
    if sizes is None or s is None:
        return TensorVal(None, t.dtype, t.domain)
    sizes = [DimVal(1)] * (len(s.dims) - len(sizes)) + list(sizes)
    return ops.repeat(t, sizes, {})


def unfold(t: TensorVal, args, kwargs):
    """unfold(dimension, size, step): that dim becomes the number of windows, a last dim of `size` added."""
    s = fixed_shape(t)
    d, size, step = (_dim(ops._arg(args, kwargs, k, name)) for k, name in enumerate(("dimension", "size", "step")))
    if s is None or not s.dims or d is None or size is None or step is None or step <= 0:
        return TensorVal(None, t.dtype, t.domain)
    axis = normalize_dim(d, len(s.dims))
    if axis is None:
        return None
    n = value(s.dims[axis])
    dims = list(s.dims)
    dims[axis] = (n - size) // step + 1 if isinstance(n, int) and n >= size else None
    return TensorVal(Shape(tuple(dims) + (size,)), t.dtype, t.domain)


def as_strided(t: TensorVal, args, kwargs):
    sizes = ops._sizes([ops._arg(args, kwargs, 0, "size")])
    if not sizes or any(not isinstance(v, DimVal) for v in sizes):
        return TensorVal(None, t.dtype)
    return TensorVal(Shape(tuple(v.dim for v in sizes)), t.dtype)


def view_as(t: TensorVal, args, kwargs):
    other = ops._arg(args, kwargs, 0, "other")
    s = fixed_shape(other)
    return TensorVal(s, t.dtype, t.domain)


def unique(t: TensorVal, args, kwargs):
    """The distinct values, a count not known here; with return_inverse / return_counts a tuple.
    (repeated_indices marks the inverse: equal values share an index.)"""
    flags = [kwargs.get(k, Literal(False)) for k in ("return_inverse", "return_counts")]
    dim = kwargs.get("dim")
    if args or any(not isinstance(f, Literal) for f in flags) or (dim is not None and _dim(dim) is None):
        return None
    s = fixed_shape(t)
    if dim is None:
        values = TensorVal(Shape((None,)), t.dtype)
        inverse = TensorVal(s, "int64")
    else:
        axis = normalize_dim(_dim(dim), len(s.dims)) if s is not None and s.dims else None
        if axis is None:
            return TensorVal(None, t.dtype) if not any(f.value for f in flags) else None
        values = TensorVal(Shape(s.dims[:axis] + (None,) + s.dims[axis + 1:]), t.dtype)
        inverse = TensorVal(Shape((s.dims[axis],)), "int64")
    inverse_too, counts_too = (bool(f.value) for f in flags)
    if not inverse_too and not counts_too:
        return values
    counts = TensorVal(Shape((values.shape.dims[axis] if dim is not None else None,)), "int64")
    return SeqVal((values,) + ((inverse,) if inverse_too else ()) + ((counts,) if counts_too else ()))


def cumulative_extreme(t: TensorVal, args, kwargs):
    """cummax / cummin(dim): (values, indices), both of the input's shape."""
    s = fixed_shape(t)
    d = _dim(ops._arg(args, kwargs, 0, "dim"))
    if s is not None and d is not None and normalize_dim(d, max(len(s.dims), 1)) is None:
        return None
    return SeqVal((TensorVal(t.shape, t.dtype), TensorVal(t.shape, "int64")), ("values", "indices"))


def histc(t: TensorVal, args, kwargs):
    """histc(bins=100): [bins] counts, as floats of the input's dtype (integer inputs are refused)."""
    if t.dtype is not None and t.dtype not in FLOATS:
        return None
    bins = ops._arg(args, kwargs, 0, "bins", DimVal(100))
    return TensorVal(Shape((bins.dim if isinstance(bins, DimVal) else None,)), t.dtype)


def bincount(t: TensorVal, args, kwargs):
    """One count per value up to the largest: 1-d, its length not known here; int64 without weights."""
    weights = ops._arg(args, kwargs, 0, "weights")
    unweighted = weights is None and "weights" not in kwargs and not args
    return TensorVal(Shape((None,)), "int64" if unweighted else None)


def diff(t: TensorVal, args, kwargs):
    """diff(n=1, dim=-1): that dim n shorter."""
    s = fixed_shape(t)
    n, d = _dim(ops._arg(args, kwargs, 0, "n", DimVal(1))), _dim(ops._arg(args, kwargs, 1, "dim", DimVal(-1)))
    extended = len(args) > 2 or "prepend" in kwargs or "append" in kwargs
    if s is None or not s.dims or n is None or d is None or n < 0:
        return TensorVal(None, t.dtype)
    axis = normalize_dim(d, len(s.dims))
    if axis is None:
        return None
    dims = list(s.dims)
    size = value(dims[axis])
    dims[axis] = None if extended else (max(size - n, 0) if isinstance(size, int) else symbolic.minus(dims[axis], n))
    return TensorVal(Shape(tuple(dims)), t.dtype)


def where(t: TensorVal, args, kwargs):
    """x.where(condition, y): torch.where(condition, x, y)."""
    condition, other = ops._arg(args, kwargs, 0, "condition"), ops._arg(args, kwargs, 1, "other")
    joined = ops.binary(t, other, "+")
    if not isinstance(joined, TensorVal):
        return None
    shape = broadcast(joined.shape, condition.shape) if isinstance(condition, TensorVal) else None
    return TensorVal(shape, joined.dtype)


def masked_scatter(t: TensorVal, args, kwargs):
    """Out of place: self and mask broadcast."""
    mask = ops._arg(args, kwargs, 0, "mask")
    return TensorVal(broadcast(t.shape, mask.shape) if isinstance(mask, TensorVal) else None, t.dtype)


def lerp(t: TensorVal, args, kwargs):
    end, weight = ops._arg(args, kwargs, 0, "end"), ops._arg(args, kwargs, 1, "weight")
    shape = broadcast(t.shape, end.shape) if isinstance(end, TensorVal) else None
    if isinstance(weight, TensorVal):
        shape = broadcast(shape, weight.shape)
    elif not isinstance(weight, (DimVal, Literal)):
        shape = None  # an unknown weight may be a tensor that broadcasts
    return TensorVal(shape, t.dtype if t.dtype in FLOATS else None)


def combinations(t: TensorVal, args, kwargs):
    """combinations(input [n], r=2): [C(n, r), r] without replacement."""
    s = fixed_shape(t)
    r = _dim(ops._arg(args, kwargs, 0, "r", DimVal(2)))
    if s is None or len(s.dims) != 1 or r is None or r < 1 or ops._arg(args, kwargs, 1, "with_replacement") not in (
            None, Literal(False)):
        return TensorVal(None, t.dtype)
    n = value(s.dims[0])
    return TensorVal(Shape((comb(n, r) if isinstance(n, int) else None, r)), t.dtype)


def quantile(t: TensorVal, args, kwargs):
    """quantile(q, dim=None, keepdim=False): a number q reduces like mean (every dim without `dim`); a
    vector of k quantiles puts a dim of k in front."""
    q = ops._arg(args, kwargs, 0, "q")
    dim, keep = ops._arg(args, kwargs, 1, "dim"), ops._arg(args, kwargs, 2, "keepdim", Literal(False))
    if t.dtype is not None and t.dtype not in FLOATS or len(args) > 3 or not isinstance(keep, Literal) or any(
            k not in ("q", "dim", "keepdim", "interpolation") for k in kwargs):
        return None  # integer inputs are refused; `out=` is not read here
    s = fixed_shape(t)
    if dim is None or dim == Literal(None):  # every dim
        reduced = (Shape((1,) * len(s.dims)) if s is not None else None) if keep.value is True else Shape(())
    else:
        made = ops.reduce(t, [dim, keep], {})
        if made is None:
            return None
        reduced = made.shape
    if isinstance(q, TensorVal):
        qs = fixed_shape(q)
        if qs is None or len(qs.dims) > 1 or reduced is None:
            return TensorVal(None, t.dtype)
        return TensorVal(Shape(qs.dims + reduced.dims), t.dtype)
    if isinstance(q, Literal) and isinstance(q.value, float) or isinstance(q, DimVal):
        return TensorVal(reduced, t.dtype)
    return TensorVal(None, t.dtype)


def cross(t: TensorVal, args, kwargs):
    """cross(other, dim): the operands broadcast."""
    other = ops._arg(args, kwargs, 0, "other")
    if not isinstance(other, TensorVal):
        return TensorVal(None, None)
    return TensorVal(broadcast(t.shape, other.shape), t.dtype if t.dtype == other.dtype else None)


def masked_select(t: TensorVal, args, kwargs):
    """The entries where the mask holds: 1-d, a count not known here."""
    return TensorVal(Shape((None,)), t.dtype)


def addcmul(t: TensorVal, args, kwargs):
    """addcmul / addcdiv(tensor1, tensor2, value=1): the three operands broadcast; one dtype kept (addcdiv
    of integers is refused)."""
    operands = [ops._arg(args, kwargs, 0, "tensor1"), ops._arg(args, kwargs, 1, "tensor2")]
    if not all(isinstance(o, TensorVal) for o in operands):
        return TensorVal(None, None)
    shape = broadcast(broadcast(t.shape, operands[0].shape), operands[1].shape)
    dtypes = {t.dtype} | {o.dtype for o in operands}
    dtype = dtypes.pop() if len(dtypes) == 1 else None
    return TensorVal(shape, dtype)


def elementwise_pair(t: TensorVal, args, kwargs):
    """maximum / minimum / fmax / fmin(other): broadcast and promoted as arithmetic."""
    other = ops._arg(args, kwargs, 0, "other")
    return ops.binary(t, other, "+") if isinstance(other, TensorVal) else TensorVal(None, None)


def unchanged(t: TensorVal, args, kwargs):
    """The same shape and dtype: an in-place op's result, or conj / resolve_conj / resolve_neg of a real tensor."""
    return TensorVal(t.shape, t.dtype)


def bernoulli(t: TensorVal, args, kwargs):
    """bernoulli(p): 0s and 1s in p's shape and (float) dtype."""
    if args or kwargs:
        return None
    return TensorVal(t.shape, t.dtype if t.dtype in FLOATS else None)


METHODS = {
    **{name: float_valued for name in FLOAT_VALUED}, **{name: float_valued_pair for name in FLOAT_VALUED_PAIRS},
    **{name: unchanged for name in IN_PLACE}, **{name: float_in_place for name in FLOAT_IN_PLACE},
    "remainder": remainder, "fmod": remainder, "bitwise_and": bitwise, "bitwise_or": bitwise, "bitwise_xor": bitwise,
    "mm": mm, "bmm": bmm, "mv": mv, "dot": dot, "outer": outer, "ger": outer, "cdist": cdist,
    "tile": tile, "unfold": unfold, "as_strided": as_strided, "view_as": view_as,
    "unique": unique, "unique_consecutive": unique, "cummax": cumulative_extreme, "cummin": cumulative_extreme,
    "histc": histc, "bincount": bincount, "diff": diff, "where": where, "masked_scatter": masked_scatter,
    "lerp": lerp, "combinations": combinations, "quantile": quantile, "nanquantile": quantile, "cross": cross,
    "masked_select": masked_select, "bernoulli": bernoulli, "expand_copy": ops.expand,
    "addcmul": addcmul, "addcdiv": addcmul, "maximum": elementwise_pair, "minimum": elementwise_pair,
    "fmax": elementwise_pair, "fmin": elementwise_pair, "ravel": lambda t, args, kwargs: ops.flatten(t, [], {}),
    "reshape_as": view_as, "conj": unchanged, "conj_physical": unchanged, "resolve_conj": unchanged,
    "resolve_neg": unchanged,
}
ops.FURTHER_METHODS.update(METHODS)  # tensor_ops.apply_method falls back on them


def meshgrid(args, kwargs):
    """meshgrid(a, b, ..., indexing="ij"): one [len(a), len(b), ...] tensor per input ("xy" swaps the first
    two sizes); each keeps its input's dtype."""
    tensors = list(args[0].items) if len(args) == 1 and isinstance(args[0], SeqVal) else list(args)
    indexing = kwargs.get("indexing", Literal("ij"))
    if not tensors or not all(isinstance(x, TensorVal) for x in tensors) or indexing not in (Literal("ij"), Literal("xy")):
        return None
    shapes = [fixed_shape(x) for x in tensors]
    if any(s is None or len(s.dims) > 1 for s in shapes):
        return SeqVal(tuple(TensorVal(None, x.dtype) for x in tensors))
    sizes = [s.dims[0] if s.dims else 1 for s in shapes]
    if indexing == Literal("xy") and len(sizes) >= 2:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    return SeqVal(tuple(TensorVal(Shape(tuple(sizes)), x.dtype) for x in tensors))


def stacked(axis_of_vectors: int, axis_of_others: int, lift: int):
    """hstack / vstack: each piece raised to `lift` dims (a vector [n] to [1, n] for vstack), then joined."""
    def join(args, kwargs):
        pieces = args[0] if args else kwargs.get("tensors")
        if isinstance(pieces, ops.Repeated) and isinstance(pieces.element, TensorVal):
            return _stacked_run(pieces, axis_of_vectors, axis_of_others, lift)
        items = list(pieces.items) if isinstance(pieces, SeqVal) else None
        if not items or not all(isinstance(x, TensorVal) for x in items):
            return None
        shapes = [fixed_shape(x) for x in items]
        if any(s is None for s in shapes):
            return TensorVal(None, items[0].dtype if len({x.dtype for x in items}) == 1 else None)
        lifted = [TensorVal(Shape((1,) * max(lift - len(s.dims), 0) + s.dims), x.dtype) for x, s in zip(items, shapes)]
        vectors = all(len(x.shape.dims) == 1 for x in lifted)
        return ops.cat(lifted, axis_of_vectors if vectors else axis_of_others, stack=False)
    return join


def _stacked_run(pieces, axis_of_vectors: int, axis_of_others: int, lift: int):
    """hstack / vstack of a list of like tensors (`torch.vstack([F.pad(t, ...) for t in rows])`): vectors
    stacked as rows by vstack, joined end to end by hstack; others joined along the axis."""
    element = pieces.element
    shape = fixed_shape(element)
    if shape is None:
        return TensorVal(None, element.dtype)
    if len(shape.dims) == 1:
        return ops.cat_repeated(element, 0, lift == 2, pieces.length)
    return ops.cat_repeated(element, axis_of_others, False, pieces.length)


def searchsorted(args, kwargs):
    """searchsorted(sorted_sequence, number): one 0-d position (a tensor of values is call_eval's)."""
    values = args[1] if len(args) > 1 else kwargs.get("input")
    wide = kwargs.get("out_int32", Literal(False))
    if not isinstance(values, (DimVal, Literal)) or isinstance(values, Literal) and not isinstance(
            values.value, (int, float)) or not isinstance(wide, Literal) or len(args) > 2:
        return None
    return TensorVal(Shape(()), "int32" if wide.value else "int64")


def where_of_numbers(condition, a, b) -> Optional[TensorVal]:
    """torch.where(mask, 1.0, 0.0): two Python numbers make a tensor of the condition's shape, float32 if
    either is a float, int64 if either is an int, bool for two bools. None unless both are known numbers."""
    from .scalars import is_float_number

    kinds = ["float" if is_float_number(v) else ("bool" if isinstance(v, Literal) and isinstance(v.value, bool) else
             ("int" if isinstance(v, DimVal) or isinstance(v, Literal) and isinstance(v.value, int) else None))
             for v in (a, b)]
    if None in kinds:
        return None
    dtype = "float32" if "float" in kinds else ("int64" if "int" in kinds else "bool")
    return TensorVal(condition.shape if isinstance(condition, TensorVal) else None, dtype)


def _cosine_similarity(args, kwargs):
    from .functional_results import cosine_similarity  # torch.cosine_similarity is F's

    return cosine_similarity(args, kwargs)


FUNCTIONS = {"searchsorted": searchsorted, "cosine_similarity": _cosine_similarity, "meshgrid": meshgrid,
             "hstack": stacked(0, 1, 1), "vstack": stacked(0, 0, 2), "row_stack": stacked(0, 0, 2)}
