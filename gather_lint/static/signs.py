"""Signs of tensor values, by the code's own evidence.

Two facts, each set only where the code shows it: ``non_negative`` (relu, softmax, exp, one_hot, rand,
positions) and ``signed``: values that may be below 0 (normal draws, Linear, Conv and embedding outputs,
logs, centred norms, differences, tanh of signed values). A value with neither is of unknown sign, and a
check whose verdict depends on the sign (a max onto a buffer of zeros, GL014) stays silent on it: a
parameter's sign is its callers' to show.
"""
from __future__ import annotations

import ast

from ..dims import value
from .tree_walk import literal_numbers
from .values import DimVal, Literal, TensorVal

# constructors and in-place fills that draw from a normal distribution
SIGNED_MAKERS = frozenset({"randn", "randn_like", "normal", "normal_"})

# elementwise ops whose values may be below 0 whatever the input: logs (of anything below 1), centred norms
ALWAYS_SIGNED = frozenset({
    "log", "log_", "log_softmax", "logsigmoid", "logit", "neg", "normal_", "sin", "cos", "layer_norm",
    "group_norm", "instance_norm", "batch_norm", "LogSoftmax", "LogSigmoid", "LayerNorm", "GroupNorm",
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
    "TransformerEncoderLayer", "TransformerEncoder",
})

# ops that keep the sign of what they are given: below 0 where the input is (tanh, gelu, leaky_relu, a
# dropout, a per-row rescaling), >= 0 where it is >= 0
SIGN_KEEPING = frozenset({
    "tanh", "gelu", "silu", "elu", "selu", "celu", "leaky_relu", "hardtanh", "hardswish", "mish", "softsign",
    "normalize", "rms_norm", "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "nan_to_num",
    "Tanh", "GELU", "SiLU", "ELU", "SELU", "CELU", "LeakyReLU", "Hardtanh", "Hardswish", "Mish", "Softsign",
    "Tanhshrink", "PReLU", "RMSNorm", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "Identity",
    "floor", "ceil", "round", "trunc", "fix", "floor_", "ceil_", "round_", "trunc_",  # roundings keep the sign
})

# ops and activation layers whose values are >= 0 whatever the input
NON_NEGATIVE = frozenset({
    "abs", "relu", "relu_", "relu6", "sigmoid", "sigmoid_", "exp", "exp_", "softmax", "square", "sqrt", "rsqrt",
    "softplus", "hardsigmoid",
    "ReLU", "ReLU6", "Sigmoid", "Softplus", "Softmax", "Softmin", "Hardsigmoid",
})

# constructors whose values are >= 0 (uniform draws in [0, 1), a copy's shape of zeros or ones)
_NON_NEGATIVE_MAKERS = frozenset({"rand", "rand_like", "zeros_like", "ones_like"})


def made_by(func: str) -> dict:
    """The sign facts of what constructor `func` makes, as TensorVal fields."""
    return {"non_negative": func in _NON_NEGATIVE_MAKERS, "signed": func in SIGNED_MAKERS}


def after_op(name: str, given, result):
    """`result` of the elementwise op or activation layer `name` applied to `given`, with the sign it has."""
    if not isinstance(result, TensorVal):
        return result
    if name in ALWAYS_SIGNED:
        return result.with_(signed=True, non_negative=False)
    if name in NON_NEGATIVE:
        return result.with_(non_negative=True, signed=False)
    if name in SIGN_KEEPING and isinstance(given, TensorVal):
        return result.with_(signed=given.signed, non_negative=given.non_negative)
    return result


def kept(source, result):
    """A view, copy, cast, part or reduction of `source` (`x[:, 0]`, `x.float()`, `x.sum(1)`): its sign."""
    if not isinstance(source, TensorVal) or not isinstance(result, TensorVal):
        return result
    if source.signed or source.non_negative:
        return result.with_(signed=source.signed, non_negative=source.non_negative)
    return result


def made(result):
    """A layer's output (Linear, Conv, Embedding, a recurrent layer): learned weights of both signs."""
    return result.with_(signed=True, non_negative=False) if isinstance(result, TensorVal) else result


def never_negative(v) -> bool:
    """Values known to be >= 0: a 0/1 mask, positions or ids of a range with no padding put in, relu and
    the like, or an int constant >= 0."""
    if isinstance(v, DimVal):
        return value(v.dim) is not None and value(v.dim) >= 0
    if isinstance(v, Literal) and type(v.value) in (int, float):
        return v.value >= 0  # `0.5 * counts`
    if not isinstance(v, TensorVal):
        return False
    domain = v.domain
    return v.non_negative or domain is not None and domain.made_float is None and domain.sentinel is None and (
        domain.binary or domain.size is not None)


def concatenated(items, result):
    """torch.cat/stack: pieces all >= 0 make a whole >= 0 (`cat([one_hot.float(), occupancy])`); values below
    0 in one piece are in the whole."""
    if isinstance(result, TensorVal) and items and all(never_negative(t) for t in items):
        result = result.with_(non_negative=True)
    return joined(items, result)


def joined(items, result):
    """torch.cat/stack, a matrix product: values below 0 in one piece are in the whole."""
    if isinstance(result, TensorVal) and any(isinstance(t, TensorVal) and t.signed for t in items):
        return result.with_(signed=True, non_negative=False)
    return result


def through_arith(left, right, symbol: str, result, right_text: str = ""):
    """Signs through `+ - * /`: a difference of tensors, or a tensor minus a positive number, may be below 0
    (unless it subtracts a minimum: `x - x.min()`); a signed operand keeps a sum or product signed unless the
    other side is a positive number added (`tanh(x) + 1` is >= 0) or the same value (`x * x`)."""
    if not isinstance(result, TensorVal) or result.non_negative:
        return result
    tensors = isinstance(left, TensorVal), isinstance(right, TensorVal)
    if symbol == "-":
        if tensors[0] and (tensors[1] and "min" not in right_text or _positive(right)) or tensors[1] and right.signed:
            return result.with_(signed=True)
        return result
    if symbol not in ("+", "*", "/"):
        return result
    signed = [side for side in (left, right) if isinstance(side, TensorVal) and side.signed]
    if not signed:
        return result
    other = right if signed[0] is left else left
    if symbol == "+" and _positive(other) or symbol == "*" and left is right:
        return result
    return result.with_(signed=True)


def _positive(v) -> bool:
    number = v.dim if isinstance(v, DimVal) else (v.value if isinstance(v, Literal) else None)
    return isinstance(number, (int, float)) and not isinstance(number, bool) and number > 0


def of_literal(func: str, data: ast.AST, result):
    """torch.tensor of written numbers: below 0 if one of them is, >= 0 if none is."""
    if func not in ("tensor", "as_tensor", "FloatTensor", "LongTensor") or not isinstance(result, TensorVal):
        return result
    numbers = literal_numbers(data, (int, float))
    if not numbers:
        return result
    return result.with_(signed=True) if min(numbers) < 0 else result.with_(non_negative=True)
