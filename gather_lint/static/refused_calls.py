"""GL033 at a family call: arguments torch's parser refuses (gather_lint.signatures).

What each argument is comes from the code: a number, string or None literal (or a name bound to one), a list or
tuple display, a value known to be a tensor (with its rank and dtype when known). Anything else is unknown and
fits every parameter. The callee must be the torch op for certain: `torch.<op>(...)`, a method on a value known
to be a tensor, or an in-place `..._` method (a name only torch tensors carry) in a file that imports torch and
no other array library with methods of those names.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..rules import gl033_refused_arguments as rule
from ..signatures import Kind, refusal, refused_reduction
from . import python_types
from .values import Literal, SeqVal, TensorVal

# Array libraries whose tensors have methods spelled like the family's in-place ops (paddle's
# `scatter_(index, updates, overwrite)`): a file that imports one may call them on values of unknown type.
_LOOK_ALIKE_LIBRARIES = frozenset({"paddle", "mindspore", "jittor", "oneflow", "megengine", "tensorflow", "jax",
                                   "mxnet", "cupy", "numpy_groupies"})
_FLOAT_DTYPES = frozenset({"float16", "bfloat16", "float32", "float64", "half", "float", "double"})


def check(interp, node: ast.Call, op, method: bool, receiver) -> bool:
    """Reports GL033 when torch refuses the call for certain; True then (the call binds to no site)."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return False
    if method and not _certainly_tensor_method(interp, op, receiver):
        return False
    positional = [_kind(interp, a) for a in node.args]
    keywords = {k.arg: _kind(interp, k.value) for k in node.keywords}
    found = refusal(op, method, positional, keywords)
    if found is None:
        return _check_reduction(interp, node, op, method)
    interp.flag(node, rule.refused(found), None)
    return True


def _check_reduction(interp, node: ast.Call, op, method: bool) -> bool:
    """`x.scatter_(0, idx, src, reduce="sum")`: a reduction name the op refuses, written as a string."""
    def text(arg):
        value = _constant(arg)
        if value is _NOT_CONSTANT and isinstance(arg, (ast.Name, ast.Attribute)):
            found = interp._peek(arg)
            value = found.value if isinstance(found, Literal) else None
        return value if isinstance(value, str) else None

    found = refused_reduction(op, method, [text(a) for a in node.args], {k.arg: text(k.value) for k in node.keywords})
    if found is None:
        return False
    interp.flag(node, rule.refused_reduction(found), None)
    return True


def _certainly_tensor_method(interp, op, receiver) -> bool:
    if receiver is None:
        return False
    if isinstance(interp._peek(receiver), TensorVal) or _made_by_torch(interp, receiver):
        return True
    return op.in_place and _imports_torch_only(interp)


_TENSOR_MAKERS = frozenset({"zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like",
                            "rand", "randn", "randint", "rand_like", "randn_like", "arange", "tensor", "as_tensor",
                            "stack", "cat", "where", "eye", "linspace"})


def _made_by_torch(interp, node) -> bool:
    """`torch.zeros(n).scatter_reduce(...)`: a receiver that a torch constructor returns."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, (ast.Attribute, ast.Name)):
        return False
    callee = interp._peek(node.func)
    name = getattr(callee, "name", None)
    return isinstance(name, str) and name.startswith("torch.") and name.count(".") == 1 \
        and name.split(".")[1] in _TENSOR_MAKERS


def _imports_torch_only(interp) -> bool:
    roots = interp.module.import_roots() if interp.module is not None else frozenset()
    return "torch" in roots and not roots & _LOOK_ALIKE_LIBRARIES


def _kind(interp, node: ast.AST) -> Optional[Kind]:
    """What the argument is for certain; None when the code does not show it."""
    constant = _constant(node)
    if constant is not _NOT_CONSTANT:
        return _python_kind(constant)
    if isinstance(node, (ast.List, ast.ListComp)):
        return Kind("list")
    if isinstance(node, ast.Tuple):
        return Kind("tuple")
    if not isinstance(node, (ast.Name, ast.Attribute)):
        return None
    value = interp._peek(node)
    if isinstance(value, Literal):
        return _python_kind(value.value)
    if isinstance(value, python_types.ListVal):
        return Kind("list")  # `rows = [1, 3]`: a list display, bound to a name
    if type(value) is SeqVal:
        return Kind("sequence")  # a tuple, a torch.Size, a (values, indices) pair: never a tensor
    if isinstance(value, TensorVal):
        shape = value.shape
        rank = shape.rank if shape is not None and not shape.guessed else None
        integral = False if value.dtype in _FLOAT_DTYPES else None
        return Kind("tensor", rank, integral)
    return None  # an int the analysis worked out (a DimVal) may be a 0-d tensor's value (`ids.max()`)


_NOT_CONSTANT = object()


def _constant(node: ast.AST):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) \
            and isinstance(node.operand, ast.Constant) and isinstance(node.operand.value, (int, float)):
        return node.operand.value
    if isinstance(node, ast.Constant):
        return node.value
    return _NOT_CONSTANT


def _python_kind(value) -> Optional[Kind]:
    if isinstance(value, bool):
        return Kind("bool")
    if isinstance(value, int):
        return Kind("int")
    if isinstance(value, float):
        return Kind("float")
    if isinstance(value, str):
        return Kind("str")
    if value is None:
        return Kind("none")
    return None

