"""Tensor methods whose result is a Python value: `n = lengths.max().item()` is an int, `x.tolist()` a list,
`x.numpy()` an array of x's dtype. Entries of the op table (tensor_ops.apply_method)."""
from __future__ import annotations

from typing import Optional

from ..dims import value
from . import tensor_ops
from .numpy_values import ArrayVal
from .scalars import NumberVal
from .values import DimVal, Literal, SeqVal, TensorVal

_FLOATS = {"float16", "bfloat16", "float32", "float64"}
_INTS = {"int64", "int32", "int16", "int8", "uint8"}
_BYTES = {"float16": 2, "bfloat16": 2, "float32": 4, "float64": 8, "int64": 8, "int32": 4, "int16": 2, "int8": 1,
          "uint8": 1, "bool": 1}
_NUMPY = _FLOATS - {"bfloat16"} | _INTS | {"bool"}  # numpy has no bfloat16: .numpy() raises
_LISTED_UP_TO = 64  # a longer vector's .tolist() is not spelled out item by item


def _number(dtype: Optional[str]):
    """One element as Python gives it: an int of unknown value, a float, or unknown (a bool, no dtype)."""
    if dtype in _INTS:
        return DimVal(None)
    return NumberVal() if dtype in _FLOATS else None


def item(t: TensorVal, args, kwargs):
    return _number(t.dtype) if not args and not kwargs else None


def tolist(t: TensorVal, args, kwargs):
    """A 0-d tensor gives one number; a vector of known length, a list of that many numbers."""
    s = t.shape
    if args or kwargs or s is None or s.variadic or len(s.dims) > 1:
        return None
    if not s.dims:
        return _number(t.dtype)
    n = value(s.dims[0])
    element = _number(t.dtype)
    if not isinstance(n, int) or element is None:
        return None
    if n > _LISTED_UP_TO:  # a list of that many numbers, its items not spelled out
        return tensor_ops.Repeated(element, n)
    return SeqVal(tuple(element for _ in range(n)))


def numpy(t: TensorVal, args, kwargs):
    """The same data as an array: its dtype, shape and values."""
    return ArrayVal(t.dtype, t.shape, t.domain) if t.dtype in _NUMPY else None


def element_size(t: TensorVal, args, kwargs):
    return DimVal(_BYTES[t.dtype]) if t.dtype in _BYTES and not args else None


def stride(t: TensorVal, args, kwargs):
    """stride() is one int per dim (their values depend on the layout); stride(d) one int."""
    if args or "dim" in kwargs:
        return DimVal(None)
    s = t.shape
    return SeqVal(tuple(DimVal(None) for _ in s.dims)) if s is not None and not s.variadic else None


def is_floating_point(t: TensorVal, args, kwargs):
    return Literal(t.dtype in _FLOATS) if t.dtype is not None else None


def is_complex(t: TensorVal, args, kwargs):
    return Literal(t.dtype.startswith("complex")) if t.dtype is not None else None


METHODS = {"is_complex": is_complex, "item": item, "tolist": tolist, "numpy": numpy, "element_size": element_size, "stride": stride,
           "is_floating_point": is_floating_point}
tensor_ops.FURTHER_METHODS.update(METHODS)  # tensor_ops.apply_method falls back on them
