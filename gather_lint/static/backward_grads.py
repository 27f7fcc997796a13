"""GL001 at a backward call given a gradient of another rank than the output it starts from.

`loss.backward(g)`, `torch.autograd.backward(out, g)` and `torch.autograd.grad(out, xs, grad_outputs=g)`
need `g` of exactly `out`'s shape; torch raises 'Mismatch in shape: grad_output[0] has a shape of
[B, 1] and output[0] has a shape of [B]'. The DQN idiom `q.backward(error.data.unsqueeze(1))`, with
`error = target - q` (elementwise, so at least q's rank), gives the gradient one dim more than q has,
whatever the sizes: found by syntax, following each name to its one assignment in the function.
Elementwise arithmetic never lowers a rank (broadcasting only adds dims), so any path from the
gradient back to the output through such steps that adds a dim is a certain mismatch.
"""
from __future__ import annotations

import ast
from typing import Iterator, Optional, Tuple

from ..rules import gl001_rank_mismatch as rule
from .normalised_axis import _bindings, assigned_value
from .text_scan import positions
from .text_scan import file_test
from .tree_walk import full_slice

# methods and torch functions that keep their input's shape (the first argument for functions)
_KEEP = {"clamp", "clamp_", "clip", "abs", "neg", "detach", "clone", "float", "double", "half", "to", "contiguous",
         "sign", "exp", "log", "sqrt", "pow", "mul", "div", "add", "sub", "tanh", "sigmoid", "relu", "cpu", "cuda"}
_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.FloorDiv, ast.Mod)
_DEPTH = 12


@file_test
def spelled_in(text: str) -> bool:
    """A backward given a gradient (`.backward(g)`, `grad_outputs=`) in a file that adds a dim somewhere
    (`unsqueeze(`, `None]`): the finding needs both, and such files are few enough to parse whole."""
    if "unsqueeze(" not in text and "None]" not in text:
        return False
    if "grad_outputs" in text or "autograd.backward(" in text:
        return True
    return any(_gradient_given(text, at + 10) for at in positions(text, ".backward("))


def _gradient_given(text: str, start: int) -> bool:
    """The first argument of `.backward(` is a gradient that adds a dim: it spells the unsqueeze itself,
    or is a name assigned on a line that does (`model.backward(loss)` of an engine passes no gradient)."""
    first = _first_argument(text, start)
    if first.startswith("gradient="):
        first = first[9:].strip()
    if not first or "=" in first or first.startswith("*"):
        return False
    if _adds_dim(first):
        return True
    name = first.lstrip("-+ (").split("(", 1)[0].split(".", 1)[0].split("[", 1)[0]
    for at in positions(text, f"{name} = "):
        line_end = text.find("\n", at)
        if _adds_dim(text[at:line_end if line_end != -1 else len(text)]):
            return True
    return False


def _first_argument(text: str, start: int) -> str:
    """The call's first argument from `start` (just past its open paren), up to a top-level comma or
    the closing paren, within a few lines."""
    depth = 0
    for at in range(start, min(len(text), start + 300)):
        ch = text[at]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return text[start:at].strip()
            depth -= 1
        elif ch == "," and depth == 0:
            return text[start:at].strip()
    return ""


def _adds_dim(spelled: str) -> bool:
    return "unsqueeze(" in spelled or "None]" in spelled


def check_module(tree: ast.Module) -> Iterator[Tuple[ast.AST, object]]:
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for call in ast.walk(function):
                if isinstance(call, ast.Call):
                    found = _backward_pair(call)
                    if found is not None:
                        yield from _check(function, call, *found)


def _backward_pair(call: ast.Call) -> Optional[Tuple[ast.AST, ast.AST, str]]:
    """(output, gradient, how the call is named) of a backward call with one output and its gradient."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    keywords = {k.arg: k.value for k in call.keywords}
    owner = func.value
    is_autograd = isinstance(owner, ast.Name) and owner.id == "autograd" or \
        isinstance(owner, ast.Attribute) and owner.attr == "autograd"
    if func.attr == "backward" and not is_autograd:
        grad = keywords.get("gradient", call.args[0] if call.args else None)
        return (owner, grad, "backward") if grad is not None else None
    if func.attr == "backward" and is_autograd and call.args:
        grad = keywords.get("grad_tensors", call.args[1] if len(call.args) > 1 else None)
        return (call.args[0], grad, "torch.autograd.backward") if grad is not None else None
    if func.attr == "grad" and is_autograd and call.args:
        grad = keywords.get("grad_outputs", call.args[2] if len(call.args) > 2 else None)
        return (call.args[0], grad, "torch.autograd.grad") if grad is not None else None
    return None


def _check(function, call, output, grad, how) -> Iterator[Tuple[ast.AST, object]]:
    if not isinstance(output, ast.Name):
        return
    added = _added_dims(function, call.lineno, grad, output.id, call.lineno, _DEPTH)
    if added is None or added <= 0:
        return
    yield call, rule.check_backward_grad(ast.unparse(call), how, output.id, ast.unparse(grad), added)


def _added_dims(function, until: int, node, output: str, line: int, depth: int) -> Optional[int]:
    """At least how many dims `node` has more than the output named `output` (None: not made from it).
    `line` is where node is read: a name is followed to its one assignment before it."""
    if depth == 0:
        return None
    if isinstance(node, ast.Name):
        if node.id == output:
            return 0 if not _rebound(function, output, line, until) else None
        made = assigned_value(node, function, line)
        if made is None or made is node:
            return None
        return _added_dims(function, until, made, output, _assigned_line(function, node.id), depth - 1)
    if isinstance(node, ast.Attribute) and node.attr == "data":
        return _added_dims(function, until, node.value, output, line, depth - 1)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _added_dims(function, until, node.operand, output, line, depth - 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, _ARITH):
        found = [_added_dims(function, until, side, output, line, depth - 1) for side in (node.left, node.right)]
        known = [f for f in found if f is not None]
        return max(known) if known else None  # broadcasting: at least the rank of either side
    if isinstance(node, ast.Subscript) and _only_new_axes(node.slice):
        inner = _added_dims(function, until, node.value, output, line, depth - 1)
        return None if inner is None else inner + _new_axes(node.slice)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        name = node.func.attr
        receiver = node.func.value
        on_module = isinstance(receiver, ast.Name) and receiver.id in ("torch", "F")
        if name == "unsqueeze" and not on_module and len(node.args) == 1:
            inner = _added_dims(function, until, receiver, output, line, depth - 1)
            return None if inner is None else inner + 1
        if name in _KEEP:
            source = node.args[0] if on_module and node.args else (None if on_module else receiver)
            return _added_dims(function, until, source, output, line, depth - 1) if source is not None else None
    return None


def _only_new_axes(key) -> bool:
    """`x[:, None]`, `x[..., None]`: full slices, an ellipsis and at least one None."""
    items = key.elts if isinstance(key, ast.Tuple) else [key]
    return _new_axes(key) > 0 and all(
        isinstance(i, ast.Constant) and (i.value is None or i.value is Ellipsis) or
        full_slice(i) for i in items)


def _new_axes(key) -> int:
    items = key.elts if isinstance(key, ast.Tuple) else [key]
    return sum(1 for i in items if isinstance(i, ast.Constant) and i.value is None)


def _assigned_line(function, name: str) -> int:
    return _bindings(function)[name][0].lineno


def _rebound(function, name: str, line: int, until: int) -> bool:
    """The output is bound again between where the gradient reads it and the backward call: two tensors."""
    return any(line < getattr(b, "lineno", 0) < until for b in _bindings(function).get(name, ()))
