"""NumPy arrays, by dtype (and shape where the code gives the sizes), up to the tensor torch makes of them.

`torch.from_numpy(a)` and `torch.as_tensor(a)` keep the array's dtype, and NumPy's defaults are not
torch's: `np.zeros(n)`, `np.array([])` and `np.linspace` are float64, and concatenating an int array
onto a float one (`idx = np.array([])` then `np.concatenate([idx, np.flatnonzero(m)])`) stays
float64. Such an index reaches index_select / gather as a float tensor, which torch rejects.

Shapes come from the sizes a constructor is given (`np.zeros((h, w))`, `rng.integers(0, n, size=(h, w))`,
`np.random.rand(n, d)`), and follow `astype`, `reshape`/`flatten` and reads of rows, so that a label map
decoded as uint8 reaches an index as a mask of its real size.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional

from dataclasses import replace

from ..contract import Domain
from ..dims import Shape, value
from .values import DimVal, Literal, QualName, SeqVal, TensorVal


@dataclass(frozen=True)
class ArrayVal:
    """A numpy.ndarray (or NumPy scalar) whose dtype is known, and its shape when that is known."""

    dtype: str
    shape: Optional[Shape] = None
    domain: object = None  # a tensor's value facts (contract.Domain), kept by `t.numpy()` and `np.asarray(t)`


_NAMES = {
    "float64": "float64", "double": "float64", "float_": "float64", "float32": "float32", "single": "float32",
    "float16": "float16", "half": "float16", "int64": "int64", "int_": "int64", "intp": "int64", "long": "int64",
    "int32": "int32", "int16": "int16", "int8": "int8", "uint8": "uint8", "uint16": "uint16", "uint32": "uint32",
    "uint64": "uint64", "bool_": "bool", "bool": "bool",
}
_BUILTINS = {"int": "int64", "float": "float64", "bool": "bool"}
_FLOAT_DEFAULT = {"zeros", "ones", "empty", "linspace", "logspace", "rand", "randn", "random", "mean", "eye",
                  "geomspace", "uniform", "normal", "loadtxt", "genfromtxt"}  # a text file's numbers: float64
_POSITIONS = {"flatnonzero", "argsort", "argmax", "argmin", "searchsorted", "digitize", "argwhere", "permutation",
              "randint", "integers", "bincount", "cumsum"}  # (cumsum of ints: ints; a float input is handled below)
# a random generator's methods give the dtypes np.random's functions of the same name give
_GENERATORS = {"default_rng", "RandomState", "Generator"}
_JOINS = {"concatenate", "stack", "hstack", "vstack", "append", "r_"}
_LIKE = {"zeros_like", "ones_like", "empty_like", "full_like"}
TO_TENSOR = {"from_numpy", "as_tensor", "tensor", "asarray"}
# past its top, a cast to a narrower integer type wraps ids around (a label map kept as uint8)
INT_HOLDS_UP_TO = {"uint8": 255, "int8": 127, "int16": 32767, "uint16": 65535}
_WIDE_INTS = ("int64", "int32")


def _integer(dtype) -> bool:
    return dtype is not None and dtype.startswith(("int", "uint"))


def narrowed(domain, dtype: str, where: str):
    """The values' facts after a cast of ids to `dtype` (INT_HOLDS_UP_TO): those past its top wrap around."""
    return replace(domain or Domain(), rounded=(dtype, INT_HOLDS_UP_TO[dtype], where))


# tensor dtypes NumPy holds as they are (bfloat16 it has not)
_TENSOR_TO_NUMPY = {"float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"}


def dtype_of(value, node=None) -> Optional[str]:
    """A dtype argument: np.int64, "float32", or the builtins int / float / bool (read from the node)."""
    if isinstance(node, ast.Name) and node.id in _BUILTINS:
        return _BUILTINS[node.id]
    if isinstance(value, QualName) and value.name.split(".")[0] == "numpy":
        return _NAMES.get(value.name.rsplit(".", 1)[-1])
    if isinstance(value, Literal) and isinstance(value.value, str):
        return _NAMES.get(value.value)
    return None


def call(func: str, args: list, kwargs: dict, node: ast.Call):
    """np.<func>(...) (np.random.<func> too), when the result's dtype is certain, with its shape."""
    made = _call(func, args, kwargs, node)
    if isinstance(made, ArrayVal) and made.shape is None:
        shape = _made_shape(func, args, kwargs)
        return ArrayVal(made.dtype, shape) if shape is not None else made
    return made


_SIZED_FIRST = {"zeros", "ones", "empty", "full"}  # the shape is the first argument
_SIZED_SPREAD = {"rand", "randn"}  # np.random.rand(n, d): one size per argument
_DRAWS = {"integers", "randint", "random", "uniform", "normal", "choice", "permutation"}  # size=...


def _made_shape(func: str, args: list, kwargs: dict) -> Optional[Shape]:
    if func in _SIZED_FIRST:
        return _sizes(args[0] if args else kwargs.get("shape"))
    if func in _SIZED_SPREAD and args and all(isinstance(a, DimVal) for a in args):
        return Shape(tuple(a.dim for a in args))
    if func in _DRAWS and "size" in kwargs:
        return _sizes(kwargs["size"])
    if func == "arange" and len(args) == 1 and isinstance(args[0], DimVal):
        return Shape((args[0].dim,))
    return None


def _sizes(given) -> Optional[Shape]:
    """(h, w) / [h, w] / n as an array's shape."""
    if isinstance(given, DimVal):
        return Shape((given.dim,))
    if isinstance(given, SeqVal) and not given.names and all(isinstance(i, DimVal) for i in given.items):
        return Shape(tuple(i.dim for i in given.items))
    return None


# where numpy's makers take their dtype when it is given by position: np.zeros(shape, dtype), np.full(shape, fill, dtype)
_DTYPE_AT = {"zeros": 1, "ones": 1, "empty": 1, "full": 2, "array": 1, "asarray": 1, "ascontiguousarray": 1,
             "zeros_like": 1, "ones_like": 1, "empty_like": 1, "full_like": 2, "identity": 1, "eye": 3}


def _call(func: str, args: list, kwargs: dict, node: ast.Call):
    if func in _GENERATORS:
        return QualName("numpy.random")  # rng = np.random.default_rng(0): rng.integers(...) as np.random's
    if "dtype" in kwargs:
        keyword = next((k.value for k in node.keywords if k.arg == "dtype"), None)
        found = dtype_of(kwargs["dtype"], keyword)
        return ArrayVal(found) if found else None
    at = _DTYPE_AT.get(func)
    if at is not None and len(node.args) > at and len(args) > at:  # np.zeros(n, np.int64): the dtype by position
        found = dtype_of(args[at], node.args[at])
        return ArrayVal(found) if found else None
    if func in ("array", "asarray", "ascontiguousarray") and len(args) == 1 and isinstance(args[0], TensorVal) \
            and args[0].dtype in _TENSOR_TO_NUMPY:  # np.asarray(t): the tensor's data as an array
        return ArrayVal(args[0].dtype, args[0].shape, args[0].domain)
    if func in ("array", "asarray", "ascontiguousarray") and args:
        found = _data_dtype(args[0])
        return ArrayVal(found) if found else None
    if func in _FLOAT_DEFAULT:
        return ArrayVal("float64")
    if func in ("integers", "randint") and args and all(isinstance(a, DimVal) for a in args):
        return ArrayVal("int64")  # rng.integers(0, n, size=...): int64 draws
    if func in _POSITIONS:
        if func == "cumsum" and not (args and isinstance(args[0], ArrayVal) and args[0].dtype.startswith("int")):
            return None
        return ArrayVal("int64")
    if func == "arange" and args:
        floats = any(isinstance(a, Literal) and isinstance(a.value, float) for a in args)
        return ArrayVal("float64") if floats else (ArrayVal("int64") if all(isinstance(a, DimVal) for a in args) else None)
    if func in _JOINS and args:
        parts = list(args[0].items) if isinstance(args[0], SeqVal) else [args[0]]
        if func == "append" and len(args) > 1:
            parts.append(args[1])
        found = _promote([_data_dtype(p) for p in parts])
        return ArrayVal(found) if found else None
    if func in _LIKE and args and isinstance(args[0], ArrayVal):
        return args[0]
    if func in ("floor", "ceil", "round", "rint", "sqrt", "log", "exp", "abs", "clip") and args and isinstance(args[0], ArrayVal):
        return args[0] if args[0].dtype.startswith("float") or func in ("abs", "clip") else ArrayVal("float64")
    return None


def method(name: str, owner: ArrayVal, args: list, kwargs: dict, node: ast.Call) -> Optional[ArrayVal]:
    """arr.astype(np.int64), arr.copy(), arr.reshape(...), arr.flatten()..."""
    if name == "astype" and (args or "dtype" in kwargs):
        nodes = list(node.args) + [k.value for k in node.keywords if k.arg == "dtype"]
        found = dtype_of(args[0] if args else kwargs["dtype"], nodes[0] if nodes else None)
        if not found:
            return None
        # an integer cast keeps the values (a wrap-around a narrower one made included); a narrowing one wraps
        domain = owner.domain if isinstance(owner, ArrayVal) and _integer(owner.dtype) and _integer(found) else None
        if domain is not None and found in INT_HOLDS_UP_TO and owner.dtype in _WIDE_INTS:
            domain = narrowed(domain, found, f"`.astype()` at line {node.lineno}")
        return ArrayVal(found, owner.shape if isinstance(owner, ArrayVal) else None, domain)
    if name in ("copy", "round", "clip", "sort"):
        return owner  # a float array rounded is still float64, of its shape
    if name in ("reshape", "flatten", "ravel") and isinstance(owner, ArrayVal):
        return ArrayVal(owner.dtype, _reshaped(owner.shape, args) if name == "reshape" else _reshaped(owner.shape, [DimVal(-1)]))
    if name in ("squeeze", "transpose", "take", "repeat", "cumsum", "swapaxes") and isinstance(owner, ArrayVal):
        return ArrayVal(owner.dtype)
    return None


def _reshaped(shape: Optional[Shape], args: list) -> Optional[Shape]:
    """`a.reshape(-1)`, `a.reshape(h, w)`, `a.reshape((h, w))` with every size known (one -1 inferred)."""
    sizes = args[0].items if len(args) == 1 and isinstance(args[0], SeqVal) else args
    if not sizes or not all(isinstance(a, DimVal) and isinstance(value(a.dim), int) for a in sizes):
        return None
    wanted = [value(a.dim) for a in sizes]
    total = None
    if shape is not None and not shape.variadic and all(isinstance(value(d), int) for d in shape.dims):
        total = 1
        for d in shape.dims:
            total *= value(d)
    if wanted.count(-1) == 1:
        rest = 1
        for w in wanted:
            rest *= w if w != -1 else 1
        if total is None or rest == 0 or total % rest:
            return None
        wanted[wanted.index(-1)] = total // rest
    return Shape(tuple(wanted)) if -1 not in wanted else None


def row(owner: ArrayVal, key) -> ArrayVal:
    """`a[i]`: a row, one dim fewer; `a[i:j]`: the rows picked, their count unknown; other keys: the dtype."""
    from .tensor_ops import SliceVal
    shape = owner.shape
    if shape is None or shape.variadic or not shape.dims:
        return ArrayVal(owner.dtype)
    if isinstance(key, DimVal):
        return ArrayVal(owner.dtype, Shape(shape.dims[1:]))
    if isinstance(key, SliceVal):
        return ArrayVal(owner.dtype, Shape((None,) + shape.dims[1:]))
    return ArrayVal(owner.dtype)


def unpacks_into(array: ArrayVal, count: int) -> bool:
    """`a, b, c = arr` may run: arr's first dim is not known to hold another count (nor known not to exist).
    Each name then gets a row of arr's dtype (a numpy scalar of a 1-d arr), whatever arr's shape."""
    shape = array.shape
    if shape is None or shape.variadic:
        return True
    return bool(shape.dims) and value(shape.dims[0]) in (None, count)


def to_tensor(func: str, array: ArrayVal, kwargs: dict) -> Optional[TensorVal]:
    """torch.from_numpy / as_tensor / tensor of an array: the array's dtype unless one is given."""
    if "dtype" in kwargs:
        return None  # the torch constructor's own dtype argument decides: handled as usual
    return TensorVal(array.shape, array.dtype, array.domain, origin="numpy array")


def _data_dtype(data) -> Optional[str]:
    """dtype NumPy infers for array data: an array's own, ints -> int64, any float -> float64, [] -> float64."""
    if isinstance(data, ArrayVal):
        return data.dtype
    if isinstance(data, DimVal):
        return "int64"
    if isinstance(data, Literal):
        return "float64" if isinstance(data.value, float) else ("bool" if isinstance(data.value, bool) else None)
    if isinstance(data, SeqVal) and not data.names:
        if not data.items:
            return "float64"  # np.array([]) has no items to infer from
        return _promote([_data_dtype(item) for item in data.items])
    return None


def _promote(dtypes) -> Optional[str]:
    """NumPy's result dtype for a join, when every part's dtype is known."""
    if not dtypes or None in dtypes:
        return None
    if len(set(dtypes)) == 1:
        return dtypes[0]
    floats = [d for d in dtypes if d.startswith("float")]
    if "float64" in floats or (floats and any(d.startswith("int") for d in dtypes)):
        return "float64"  # int64 with float32 is float64 in NumPy
    return None
