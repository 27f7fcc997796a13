"""Whether a tensor's dtype is the one the code makes, or a guess that may stand for another float.

The analysis reads "float32" from many places that do not pin it: a `Float[...]` annotation, a docstring's
FloatTensor, a layer's output, a parameter. A model runs in half precision as often as not (`model.half()`,
`module.to(torch.bfloat16)`, autocast), so a check that needs float32 for certain (GL016: torch refuses to
scatter float16 into float32) stays silent on those. A dtype is certain where the code itself makes it:

- a constructor with a written dtype, or with none in a file that never changes the default dtype
  (`torch.zeros(n)`, `torch.randn(B, D)`, `torch.tensor([0.5, 1.0])`);
- a cast to a written dtype (`.float()`, `.half()`, `.to(torch.float32)`), or to the dtype of a tensor
  whose own dtype is certain (`.type_as(x)`, `.to(x.dtype)`, `zeros_like(x)`);
- an op that computes in its input's dtype, from inputs whose dtypes are all certain: elementwise math,
  softmax, reductions, views, `topk`, gather, subscripts.

It is lost where the dtype may change out of sight: an `nn.Parameter` or a registered buffer (a module's
`.half()` converts them), and the ops autocast runs in lower precision (matmul, linear, conv, bmm).
The mark is kept as `TensorVal.exact_dtype`, which names the dtype it vouches for: an op that changes the
dtype without renewing the mark leaves a stale one, which `certain` does not trust.
"""
from __future__ import annotations

import ast
from typing import Optional

from .scalars import NumberVal
from .tensor_ops import CAST_METHODS
from .values import DimVal, Literal, SeqVal, TensorVal

# ops autocast runs in float16/bfloat16 whatever their inputs' dtype: their float32 is not certain
LOWERED_BY_AUTOCAST = frozenset({
    "matmul", "mm", "bmm", "addmm", "addbmm", "baddbmm", "addmv", "addr", "mv", "linear", "conv1d", "conv2d",
    "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "prelu", "chain_matmul", "multi_dot",
    "einsum", "matrix_power",
})
# constructors whose dtype, with no dtype given, is the default float dtype or one fixed by their arguments
CONSTRUCTORS = frozenset({"zeros", "ones", "empty", "rand", "randn", "full", "eye", "linspace", "logspace", "arange",
                          "randint", "randperm", "tensor", "as_tensor", "FloatTensor", "LongTensor"})
# ops whose result dtype is promoted over every tensor operand, not only the one they are called on
PROMOTING = frozenset({
    "add", "sub", "mul", "div", "divide", "true_divide", "pow", "where", "maximum", "minimum", "fmax", "fmin",
    "fmod", "remainder", "lerp", "addcmul", "addcdiv", "atan2", "hypot", "copysign", "logaddexp", "rsub",
    "floor_divide", "clamp", "clip", "clamp_min", "clamp_max", "dot", "inner", "outer", "cross", "kron", "dist",
    "cdist", "xlogy", "masked_scatter", "cat", "concat", "stack", "hstack", "vstack",
})
_NOT_FLOAT = frozenset({"int64", "int32", "int16", "int8", "uint8", "bool"})
_DATA_COPIES = frozenset({"tensor", "as_tensor", "FloatTensor", "LongTensor"})  # their dtype may be their data's


def certain(t) -> bool:
    """`t`'s dtype is the one the code makes for certain."""
    return isinstance(t, TensorVal) and t.dtype is not None and t.exact_dtype == t.dtype


def vouched(t: TensorVal, yes: bool) -> TensorVal:
    """`t` with its dtype marked certain when `yes`, and any mark dropped when not."""
    wanted = t.dtype if yes else None
    return t if t.exact_dtype == wanted else t.with_(exact_dtype=wanted)


def keeps_default_dtype(interp) -> bool:
    """No code in this file changes torch's default dtype, so a constructor with no dtype makes float32."""
    text = interp.source.text
    return "set_default_dtype" not in text and "set_default_tensor_type" not in text


def constructed(interp, func: str, node: ast.Call, made):
    """A torch constructor's result: certain with a written dtype, or none given in a file that keeps the
    default; a copy of data (`torch.tensor(x)`) only when the data is written out as literals."""
    if not isinstance(made, TensorVal) or made.dtype is None or func not in CONSTRUCTORS:
        return made
    given = next((k.value for k in node.keywords if k.arg == "dtype"), None)
    if any(k.arg is None for k in node.keywords):
        return made  # **options may carry a dtype
    if given is not None:
        return vouched(made, _written_dtype(given))
    if func in _DATA_COPIES and not (node.args and _written_data(node.args[0])):
        return made  # torch.tensor(values) takes the values' dtype, which a tensor's may be any
    return vouched(made, keeps_default_dtype(interp))


def like(node: ast.Call, like_of: TensorVal, made):
    """`zeros_like(x)` has x's dtype, certain where x's is; with a dtype given, where that one is written."""
    if not isinstance(made, TensorVal) or any(k.arg is None for k in node.keywords):
        return made
    given = next((k.value for k in node.keywords if k.arg == "dtype"), None)
    return vouched(made, _written_dtype(given) if given is not None else certain(like_of) and made.dtype == like_of.dtype)


def after_method(interp, name: str, owner: TensorVal, args: list, node: ast.Call, module, result):
    """`owner.<name>(*args)` or `torch.<name>(owner, *args)`: certain when it casts to a written dtype or to a
    certain tensor's, or computes in the dtype of inputs that are all certain."""
    if isinstance(result, SeqVal):  # topk's (values, indices): each item on its own
        return SeqVal(tuple(after_method(interp, name, owner, args, node, module, item) for item in result.items),
                      result.names)
    if not isinstance(result, TensorVal) or result.dtype is None:
        return result
    arg_nodes = list(node.args[1:] if module is not None else node.args)
    dtype_nodes = arg_nodes + [k.value for k in node.keywords if k.arg == "dtype"]
    if name in CAST_METHODS and not args:  # `.float()` is float32 whatever the default dtype
        return vouched(result, True)
    if name in LOWERED_BY_AUTOCAST:
        return vouched(result, False)
    if name in ("to", "type", "type_as") or any(k.arg == "dtype" for k in node.keywords):
        source = _dtype_source(interp, dtype_nodes, args)
        if source is not None:
            return vouched(result, source)
    if name in PROMOTING:  # the other operands take part in the result's dtype
        return vouched(result, certain(owner) and all(_harmless(a) for a in args)
                       and result.dtype == owner.dtype)
    return vouched(result, certain(owner) and result.dtype == owner.dtype)


def through_operator(left, right, result):
    """`a * b`, `a / 2`: certain when every operand is a number or a tensor of certain dtype (an operand of
    unknown kind may be a tensor of another float dtype) and the result keeps a tensor operand's dtype."""
    if not isinstance(result, TensorVal) or result.dtype is None:
        return result
    tensors = [v for v in (left, right) if isinstance(v, TensorVal)]
    return vouched(result, all(_harmless(v) for v in (left, right)) and any(
        certain(t) and result.dtype == t.dtype for t in tensors))


def joined(items, result):
    """`torch.cat(parts)`: certain when every part's dtype is certain and the same as the result's."""
    if not isinstance(result, TensorVal) or result.dtype is None:
        return result
    return vouched(result, bool(items) and all(certain(t) and t.dtype == result.dtype for t in items))


def kept(owner, picked):
    """A part of a tensor (`x[idx]`, `x[:, 0]`, a gather's result) has its dtype, certain where it is."""
    if not isinstance(picked, TensorVal) or picked.dtype is None:
        return picked
    return vouched(picked, certain(owner) and picked.dtype == owner.dtype)


def uncertain(t):
    """A parameter or a registered buffer: a module's `.half()` / `.to(dtype)` converts it out of sight."""
    return vouched(t, False) if isinstance(t, TensorVal) else t


def mark(site, values: dict) -> None:
    """Record on the site which of self and the written tensor has a certain dtype (GL016 reads it)."""
    if certain(values.get("input")):
        site.options["input_dtype_exact"] = True
    payload = values.get(site.op.payload_param) if site.op.payload_param else None
    if certain(payload):
        site.options["payload_dtype_exact"] = True


def _harmless(v) -> bool:
    """An operand that cannot move a float result off a certain dtype: a number, an integer or bool
    tensor (which never promotes a float), or a tensor whose dtype is certain."""
    if isinstance(v, TensorVal):
        return certain(v) or v.dtype in _NOT_FLOAT
    return isinstance(v, (DimVal, Literal, NumberVal))


def _dtype_source(interp, nodes, args) -> Optional[bool]:
    """Whether the dtype a cast asks for is certain: a written `torch.float32`, a tensor of certain dtype, or
    `x.dtype` of one; None when no argument names a dtype (`.to(device)` keeps the owner's)."""
    for node, v in zip(nodes, list(args) + [None] * len(nodes)):
        if _written_dtype(node):
            return True
        if isinstance(node, ast.Attribute) and node.attr == "dtype":
            return certain(interp._peek(node.value))
        if isinstance(v, TensorVal):
            return certain(v)
        if isinstance(v, Literal) and isinstance(v.value, str) and v.value.startswith("dtype:"):
            return False  # a dtype held in a variable: which one is a guess
    return None


def _written_dtype(node) -> bool:
    """`torch.float32`, `torch.long`: a dtype written out in the code."""
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "torch" \
        and not node.attr[:1].isupper()


def _written_data(node) -> bool:
    """A list, tuple or number written out: `torch.tensor([[0.5, 1.0]])`."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return all(_written_data(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp):
        return _written_data(node.operand)
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool))
