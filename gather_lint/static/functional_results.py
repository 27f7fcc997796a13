"""Entries of the op table for torch.nn.functional: losses reduced to one number, resampling
(interpolate, grid_sample, affine_grid), attention, convolutions and similarity. Each takes the call's
arguments and returns the result's abstract value, unknown wherever torch's answer is not certain.
(`reduction="none"` losses are unreduced_losses'.)"""
from __future__ import annotations

import math

from ..dims import Shape, broadcast, normalize_dim, value
from . import modules
from . import tensor_ops as ops
from .values import DimVal, Literal, SeqVal, TensorVal
from .tensor_ops import fixed_shape

FLOATS = ops.FLOAT_DTYPES
# losses of class scores against class ids (or probabilities): the scores' dtype
_CLASS_LOSSES = {"cross_entropy": 2, "nll_loss": 2, "multi_margin_loss": 2, "multilabel_soft_margin_loss": 2}
# losses of two same-shaped operands: the operands' dtype, promoted
_PAIR_LOSSES = {"mse_loss": 2, "l1_loss": 2, "smooth_l1_loss": 2, "huber_loss": 2, "kl_div": 2,
                "binary_cross_entropy": 2, "binary_cross_entropy_with_logits": 2, "soft_margin_loss": 2,
                "poisson_nll_loss": 2}
# positional arguments beyond these (legacy size_average / reduce) leave the reduction unknown
_REDUCED = {"mean", "sum", "batchmean"}


def _input_target(args, kwargs):
    given = list(args[:2]) + [kwargs.get(k) for k in ("input", "target")[len(args[:2]):]]
    return given[0], given[1]


def reduced_loss(func: str):
    """A loss with reduction "mean" (the default), "sum" or kl_div's "batchmean": one 0-d number."""
    positional = _CLASS_LOSSES.get(func) or _PAIR_LOSSES[func]

    def loss(args, kwargs):
        reduction = kwargs.get("reduction", Literal("mean"))
        if len(args) > positional + (1 if func in _CLASS_LOSSES else 0) or not isinstance(reduction, Literal) \
                or reduction.value not in _REDUCED or (reduction.value == "batchmean" and func != "kl_div") \
                or "size_average" in kwargs or "reduce" in kwargs:
            return None
        scores, target = _input_target(args, kwargs)
        if not isinstance(scores, TensorVal):
            return None
        if func in _CLASS_LOSSES:
            dtype = scores.dtype if scores.dtype in FLOATS else None
        else:
            dtype = ops._promote(scores.dtype, target.dtype) if isinstance(target, TensorVal) else None
            dtype = dtype if dtype in FLOATS else None
        return TensorVal(Shape(()), dtype)
    return loss


def interpolate(args, kwargs):
    """[N, C, *spatial] resized: `size` gives the new sizes; an integer `scale_factor` of known sizes
    multiplies them (floor of size * factor); N and C stay."""
    x = args[0] if args else kwargs.get("input")
    s = fixed_shape(x)
    if s is None or len(s.dims) < 3:
        return TensorVal(None, x.dtype) if isinstance(x, TensorVal) else None
    spatial = len(s.dims) - 2
    size = args[1] if len(args) > 1 else kwargs.get("size")
    factor = args[2] if len(args) > 2 else kwargs.get("scale_factor")
    out = (None,) * spatial
    if isinstance(size, DimVal):
        out = (size.dim,) * spatial
    elif isinstance(size, SeqVal) and len(size.items) == spatial and all(isinstance(v, DimVal) for v in size.items):
        out = tuple(v.dim for v in size.items)
    elif (size is None or size == Literal(None)) and kwargs.get("recompute_scale_factor") in (None, Literal(None)):
        scale = factor.dim if isinstance(factor, DimVal) else (factor.value if isinstance(factor, Literal) else None)
        if isinstance(scale, (int, float)) and not isinstance(scale, bool) and scale > 0:
            out = tuple(math.floor(value(d) * scale) if isinstance(value(d), int) else None for d in s.dims[2:])
    return TensorVal(Shape(s.dims[:2] + out), x.dtype)


def grid_sample(args, kwargs):
    """input [N, C, *in], grid [N, *out, k]: [N, C, *out]."""
    x = args[0] if args else kwargs.get("input")
    grid = args[1] if len(args) > 1 else kwargs.get("grid")
    s, g = fixed_shape(x), fixed_shape(grid)
    if not isinstance(x, TensorVal):
        return None
    if s is None or g is None or len(s.dims) not in (4, 5) or len(g.dims) != len(s.dims):
        return TensorVal(None, x.dtype)
    return TensorVal(Shape(s.dims[:2] + g.dims[1:-1]), x.dtype)


def affine_grid(args, kwargs):
    """theta [N, 2, 3], size (N, C, H, W): [N, H, W, 2] (and [N, D, H, W, 3] in 3-d)."""
    theta = args[0] if args else kwargs.get("theta")
    size = args[1] if len(args) > 1 else kwargs.get("size")
    if not isinstance(theta, TensorVal):
        return None
    if not isinstance(size, SeqVal) or len(size.items) not in (4, 5) or not all(isinstance(v, DimVal) for v in size.items):
        return TensorVal(None, theta.dtype)
    dims = [v.dim for v in size.items]
    return TensorVal(Shape((dims[0],) + tuple(dims[2:]) + (len(dims) - 2,)), theta.dtype)


def attention(args, kwargs):
    """scaled_dot_product_attention(q [.., L, E], k [.., S, E], v [.., S, Ev]): [.., L, Ev], q's dtype."""
    q, v = (args[0] if args else kwargs.get("query")), (args[2] if len(args) > 2 else kwargs.get("value"))
    if not isinstance(q, TensorVal):
        return None
    sq, sv = fixed_shape(q), fixed_shape(v)
    if sq is None or sv is None or len(sq.dims) < 2 or len(sv.dims) != len(sq.dims) or sq.dims[:-2] != sv.dims[:-2]:
        return TensorVal(None, q.dtype)
    return TensorVal(Shape(sq.dims[:-1] + sv.dims[-1:]), q.dtype)


def cosine_similarity(args, kwargs):
    """x1, x2 broadcast, `dim` (1) reduced away."""
    x1, x2 = (args[0] if args else kwargs.get("x1")), (args[1] if len(args) > 1 else kwargs.get("x2"))
    dim = ops.as_int(args[2] if len(args) > 2 else kwargs.get("dim", DimVal(1)))
    if not isinstance(x1, TensorVal):
        return None
    joined = broadcast(x1.shape, x2.shape) if isinstance(x2, TensorVal) else None
    dtype = x1.dtype if isinstance(x2, TensorVal) and x2.dtype == x1.dtype else None
    if joined is None or joined.variadic or dim is None or not joined.dims:
        return TensorVal(None, dtype)
    axis = normalize_dim(dim, len(joined.dims))
    if axis is None:
        return None
    return TensorVal(Shape(joined.dims[:axis] + joined.dims[axis + 1:]), dtype)


def convolution(spatial: int):
    """conv{1,2,3}d(input [N, C, *in], weight [out, C / groups, *kernel], bias, stride, padding, dilation):
    [N, out, *sizes], each size following the kernel, stride, padding and dilation (modules.Conv)."""
    def conv(args, kwargs):
        x = args[0] if args else kwargs.get("input")
        weight = args[1] if len(args) > 1 else kwargs.get("weight")
        if not isinstance(x, TensorVal):
            return None
        w = fixed_shape(weight)
        if w is None or len(w.dims) != spatial + 2:
            return TensorVal(None, x.dtype)
        names = ("stride", "padding", "dilation")
        given = dict(zip(names, args[3:6]))
        given.update({k: v for k, v in kwargs.items() if k in names})
        kernel = tuple(value(d) for d in w.dims[2:])
        layer = modules.Conv(w.dims[0], spatial, kernel, modules._per_dim(given.get("stride"), spatial, 1),
                             modules._per_dim(given.get("padding"), spatial, 0),
                             modules._per_dim(given.get("dilation"), spatial, 1))
        return layer.apply(x)
    return conv


def pooling(kind: str):
    """max_pool / avg_pool (kernel_size, stride, padding) and adaptive pools (output_size) over the last
    1, 2 or 3 dims (modules.Pool); other options (ceil_mode, dilation) leave the shape unknown. With
    `return_indices=True` a max pool gives (values, int64 indices), both of the output's shape."""
    flag_at = 2 if kind.startswith("Adaptive") else 6  # return_indices' position

    def pool(args, kwargs):
        x = args[0] if args else kwargs.get("input")
        if not isinstance(x, TensorVal):
            return None
        flag = kwargs.get("return_indices", args[flag_at] if len(args) > flag_at else None)
        if flag is not None:
            if not isinstance(flag, Literal) or not isinstance(flag.value, bool):
                return None  # a tensor or a pair, not known which
            plain = pool(list(args[:flag_at]), {k: v for k, v in kwargs.items() if k != "return_indices"})
            if flag.value is False:
                return plain
            shape = plain.shape if isinstance(plain, TensorVal) else None
            return SeqVal((TensorVal(shape, x.dtype), TensorVal(shape, "int64")))
        if len(args) > 4 or any(k not in ("kernel_size", "stride", "padding", "output_size") for k in kwargs):
            return TensorVal(None, x.dtype)
        layer = modules._pool(kind, list(args[1:]), kwargs)
        return layer.apply(x) if layer is not None else TensorVal(None, x.dtype)
    return pool


def linear(args, kwargs):
    """F.linear(input, weight=...) (the positional form is call_eval's)."""
    x = args[0] if args else kwargs.get("input")
    weight = args[1] if len(args) > 1 else kwargs.get("weight")
    if not isinstance(x, TensorVal):
        return None
    return modules.linear(x, weight) or TensorVal(None, x.dtype)


FUNCTIONS = {
    **{f"{kind}_pool{n}d": pooling(f"{kind.capitalize()}Pool{n}d") for kind in ("max", "avg") for n in (1, 2, 3)},
    **{f"adaptive_{kind}_pool{n}d": pooling(f"Adaptive{kind.capitalize()}Pool{n}d")
       for kind in ("max", "avg") for n in (1, 2, 3)},
    "linear": linear,
    **{name: reduced_loss(name) for name in list(_CLASS_LOSSES) + list(_PAIR_LOSSES)},
    "interpolate": interpolate, "upsample": interpolate, "grid_sample": grid_sample, "affine_grid": affine_grid,
    "scaled_dot_product_attention": attention, "cosine_similarity": cosine_similarity,
    "conv1d": convolution(1), "conv2d": convolution(2), "conv3d": convolution(3),
}
