"""A scatter's self made right here by a torch constructor without a dtype (`torch.zeros(n)`) is float32
for certain, unless the file changes the default dtype. GL016 stays silent on float32 against another
float because an annotation's `Float` or an unknown default may stand for any float; such a fresh
buffer is not one of those, so a float64 src written into it (values from a `dtype=torch.float64`
pipeline) is the dtype error torch raises.
"""
from __future__ import annotations

import ast

from ..contract import Site
from .last_assignment import last_assigned

_DEFAULT_FLOAT = {"zeros", "ones", "empty", "rand", "randn"}
_FLOAT32 = {"float32", "float"}


def mark(interp, site: Site, bound: dict) -> None:
    """Set site.options["input_dtype_exact"] when self is such a buffer."""
    if site.input.dtype != "float32" or site.payload is None or site.payload.dtype in (None, "float32"):
        return  # the cheap test first: a float32 self and a src of another known dtype
    if fresh_float32(interp, bound.get("input")):
        site.options["input_dtype_exact"] = True


def fresh_float32(interp, node) -> bool:
    """`node` is (a name last assigned) a default-dtype constructor, in a file that keeps the default dtype."""
    if "set_default_dtype" in interp.source.text or "set_default_tensor_type" in interp.source.text:
        return False
    made = last_assigned(interp, node.id, node.lineno) if isinstance(node, ast.Name) else node
    return _fresh_default_float(made)


def _fresh_default_float(node) -> bool:
    """`torch.zeros(..)` / `ones` / `empty` / `rand` / `randn` with no dtype, or dtype=torch.float32."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) or node.func.attr not in _DEFAULT_FLOAT \
            or not (isinstance(node.func.value, ast.Name) and node.func.value.id == "torch"):
        return False
    dtype = next((k.value for k in node.keywords if k.arg == "dtype"), None)
    if any(k.arg is None for k in node.keywords):
        return False  # **options may carry a dtype
    return dtype is None or (isinstance(dtype, ast.Attribute) and isinstance(dtype.value, ast.Name)
                             and dtype.value.id == "torch" and dtype.attr in _FLOAT32)
