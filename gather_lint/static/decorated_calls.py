"""Whether a call of a decorated function reaches the def with the caller's arguments as they are.

A decorator replaces the function: a caller's facts describe what the wrapper is given, not what the def
sees. evotorch's `@expects_ndim(1, None, 1)` vmaps the body over any extra leading dims, so a
`[n, k]` index reaches it as `[k]` rows one at a time, and the wrapper's result gains the batch dim. Only
decorators known to pass the arguments and the result through unchanged let the call bind the
caller's facts; under any other, the call's result is unknown (the def is still checked on its own).
"""
from __future__ import annotations

import ast

# decorators that call the function with the caller's own arguments and return its result
_TRANSPARENT = frozenset({
    # Python's own
    "staticmethod", "classmethod", "property", "cached_property", "abstractmethod", "overload", "override",
    "final", "no_type_check", "lru_cache", "cache", "wraps", "contextmanager",
    # torch: gradient mode, autocast, TorchScript and compile hints
    "no_grad", "inference_mode", "enable_grad", "set_grad_enabled", "autocast", "custom_fwd", "custom_bwd",
    "script", "script_method", "ignore", "unused", "export", "compile", "disable", "wrap",
    "assume_constant_result", "allow_in_graph",
    # runtime type checks
    "beartype", "typechecked", "typecheck", "jaxtyped",
    # model libraries: docstrings, registries, config defaults, kernels swapped in for the same maths, device moves
    "auto_docstring", "can_return_tuple", "merge_with_config_defaults", "capture_outputs", "dynamic_rope_update",
    "use_kernel_forward_from_hub", "use_kernel_func_from_hub_with_fallback", "use_kernelized_func",
    "add_start_docstrings", "add_start_docstrings_to_model_forward", "add_code_sample_docstrings",
    "replace_return_docstrings", "deprecate_kwarg", "compile_compatible_method_lru_cache", "_make_compile_constant",
    "register_model", "register_to_config", "apply_forward_hook", "auto_move_data",
})


def passes_facts(function) -> bool:
    """True when every decorator of `function` is one that passes arguments and result through."""
    return all(_name(d) in _TRANSPARENT for d in getattr(function, "decorator_list", ()))


def _name(node) -> str:
    """The last name of a decorator, with or without its call: `torch.no_grad()` -> "no_grad"."""
    if isinstance(node, ast.Call):
        node = node.func
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
