"""What a custom autograd Function's forward leaves on `ctx` for its backward.

`ctx.save_for_backward(idx, w)` in `forward(ctx, ...)` makes `ctx.saved_tensors` the tuple `(idx, w)` in
`backward(ctx, grad)`, and `ctx.num_points = N` is read back there as `ctx.num_points`: the backward's
index and sizes are the forward's. Both are kept as the forward's bindings of `ctx.<name>` (its own
analysis, without a caller's facts) and bound in the backward before it runs.
"""
from __future__ import annotations

import ast
from typing import Dict, Optional

from ..rules import gl009_scatter_writes_slice as gl009
from .values import SeqVal, TensorVal

_SAVE = "save_for_backward"
_SAVED = ("saved_tensors", "saved_variables")


def _context_name(function) -> Optional[str]:
    """The first parameter of a staticmethod forward/backward (`ctx`), else None."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or function.name not in ("forward", "backward"):
        return None
    if not any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in function.decorator_list):
        return None
    params = function.args.posonlyargs + function.args.args
    return params[0].arg if params else None


def note_saved(interp, call) -> None:
    """`ctx.save_for_backward(a, b)` in a forward: `ctx.saved_tensors` is (a, b) from here on."""
    name = _context_name(getattr(interp, "function", None))
    if name is None or not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                            and call.func.attr == _SAVE and isinstance(call.func.value, ast.Name)
                            and call.func.value.id == name) or any(isinstance(a, ast.Starred) for a in call.args):
        return
    saved = SeqVal(tuple(interp.expr(a) for a in call.args))
    for attr in _SAVED:
        interp.env[f"{name}.{attr}"] = saved


def keep(module, function, interp) -> None:
    """After a forward's own analysis: its `ctx.<name>` bindings, for its class's backward."""
    context = context_of(function, interp)
    if context is not None:
        module.context_facts[function] = context


def context_of(function, interp) -> Optional[Dict[str, object]]:
    """A forward's `ctx.<name>` bindings after a run, keyed by `<name>`; None for any other function."""
    name = _context_name(function)
    if name is None or function.name != "forward":
        return None
    prefix = name + "."
    return {key[len(prefix):]: v for key, v in interp.env.items() if key.startswith(prefix) and v is not None}


def _under(backward, context: Dict[str, object]) -> Dict[str, object]:
    """A forward's ctx bindings under the backward's own name for ctx (`ctx.saved_tensors`)."""
    name = _context_name(backward)
    return {f"{name}.{attr}": value for attr, value in context.items()}


def applied(interp, node, args, kwargs):
    """`Fn.apply(*args)` of a custom Function of this file: its forward with these arguments (ctx first), then its
    backward with what that forward left on ctx and a gradient shaped like its result: what a training step runs."""
    func, module = node.func, interp.module
    if module is None or not isinstance(func.value, ast.Name):
        return None
    forward = module.methods.get((func.value.id, "forward"))
    backward = module.methods.get((func.value.id, "backward"))
    if forward is None or backward is None or _context_name(forward) is None or _context_name(backward) is None:
        return None
    result = interp._call_module_function(forward, node, [None] + list(args), kwargs, skip_first=True)
    context = module.last_context.get(forward)
    if context:
        gradient = result.with_(domain=None) if isinstance(result, TensorVal) else None
        module.call(interp, backward, node, [None, gradient], {}, extra=_under(backward, context))
    return result


def bind(interp, function) -> None:
    """Before a backward runs: the forward's `ctx.<name>` bindings, under the backward's own `ctx` name."""
    name, module = _context_name(function), interp.module
    if name is None or function.name != "backward" or module is None:
        return
    forward = module.methods.get((module.class_of.get(function), "forward"))
    if forward is None or _context_name(forward) is None:
        return
    module.analyse(forward)  # memoised: run once, whichever of the two comes first
    for key, value in _under(function, module.context_facts.get(forward, {})).items():
        interp.env.setdefault(key, value)


def own_backward(interp, violations: list) -> list:
    """In the forward of a custom autograd Function (a staticmethod `forward(ctx, ...)` beside a `backward`),
    torch records no graph and the class's own backward answers for the gradient: a src longer than its index,
    cropped to the index's leading rows, is the forward's design, not a backward that fails (GL009)."""
    function = getattr(interp, "function", None)
    if not violations or _context_name(function) is None or function.name != "forward" \
            or not _beside_a_backward(interp, function):
        return violations
    return [v for v in violations if not gl009.leading_block(v)]


def _beside_a_backward(interp, function) -> bool:
    module = getattr(interp, "module", None)
    tree = getattr(module, "tree", None)
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.ClassDef) and function in node.body:
            return any(isinstance(n, ast.FunctionDef) and n.name == "backward" for n in node.body)
    return False
