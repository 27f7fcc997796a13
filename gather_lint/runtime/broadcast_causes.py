"""Why `a + b` (`-`, `*`, `/`) failed to broadcast, when one operand was made in the same function by a
reduction that dropped its dim (GL001) or by a keepdim reduction or a gather that kept it as 1 (GL006).

torch says 'The size of tensor a (8) must match the size of tensor b (4) at non-singleton dimension 1',
naming neither operand nor why their dims no longer line up. `x - x.mean(1)` on [4, 8, 16]: the mean
is [4, 16], and broadcasting aligns dims from the right, so its 4 meets x's 8. The operand's producer
is read from the user's own code (the operand itself, or the name's last assignment in the running
function) and the explanation is given only when the fix it names (keepdim=True, or squeezing the kept
1) makes the two shapes broadcast. Asked only once torch has raised, so a valid operation pays nothing.
"""
from __future__ import annotations

import ast
import linecache
import re
from typing import Optional, Tuple

import torch

from ..contract import ERROR, Violation
from ..dims import sizes_text
from ..rules import gl001_rank_mismatch as rank_rule
from ..rules import gl006_missing_squeeze as kept_rule
import gather_lint.runtime.operand_text as operand_text

_MISMATCH = re.compile(r"The size of tensor a \(\d+\) must match the size of tensor b \(\d+\) "
                       r"at non-singleton dimension")
# reductions whose dim comes first (method) or second (function), with keepdim as the next positional
_REDUCTIONS = frozenset({"sum", "mean", "amax", "amin", "prod", "logsumexp", "max", "min", "median", "argmax",
                         "argmin", "nansum", "nanmean", "std", "var"})
_KEEPDIM_AFTER_DIM = _REDUCTIONS - {"std", "var"}  # std/var take `unbiased` there
_GATHERS = frozenset({"gather", "take_along_dim"})
_PAIRS = frozenset({"max", "min", "median"})
# calls and attributes that keep their receiver's shape: `x.sum(1).float()`, `x.max(1).values`
_SAME_SHAPE = frozenset({"float", "double", "half", "bfloat16", "detach", "exp", "log", "abs", "sqrt", "clone",
                         "contiguous", "neg", "sigmoid", "relu", "tanh", "values", "indices"})
_MODULES = ("torch", "F", "functional")


def rejected(symbol: str, left, right, torch_message: str) -> Optional[Violation]:
    """The cause of torch's size mismatch in `left symbol right` running at the user's line, or None."""
    if not _MISMATCH.search(torch_message) or not isinstance(left, torch.Tensor) or not isinstance(right, torch.Tensor):
        return None
    found = operand_text.operand_nodes(symbol)
    if found is None:
        return None
    frame, left_node, right_node, text = found
    for node, tensor, other_node, other in ((left_node, left, right_node, right), (right_node, right, left_node, left)):
        made = _made_by(node, frame, text)
        if made is not None:
            explained = _explained(made, node, tensor, other_node, other, text)
            if explained is not None:
                return explained
    return None


def _text(node: ast.AST, text: str) -> str:
    return operand_text._short(ast.get_source_segment(text, node) or "")


def _made_by(node: ast.AST, frame, text: str) -> Optional[Tuple[str, int, bool, str]]:
    """(function, dim, kept, the call's text) of the reduction or gather that made the operand: the operand
    itself (parsed from `text`), or the value of its name's last assignment before this line in the running
    function."""
    if isinstance(node, ast.Name):
        node, text = _assigned(node.id, frame) or (None, "")
    while node is not None:
        if isinstance(node, ast.UnaryOp):
            node = node.operand
        elif isinstance(node, ast.Attribute) and node.attr in _SAME_SHAPE:
            node = node.value
        elif isinstance(node, ast.Subscript) and _pair_of(node.value) and isinstance(node.slice, ast.Constant) \
                and node.slice.value in (0, 1):
            node = node.value  # `x.max(1)[0]`: the values of a (values, indices) pair
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _SAME_SHAPE \
                and not node.args and not node.keywords:
            node = node.func.value
        elif isinstance(node, ast.Call):
            made = _producer(node)
            return None if made is None else made + (_text(node, text),)
        else:
            return None
    return None


def _pair_of(node: ast.AST) -> bool:
    """A call that returns (values, indices) when given a dim: max, min, median."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _PAIRS


def _producer(call: ast.Call) -> Optional[Tuple[str, int, bool]]:
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    name = func.attr
    args = list(call.args)
    if _is_module(func.value):
        args = args[1:]  # torch.sum(x, 1): the input is not the dim
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    dim_node = args[0] if args else keywords.get("dim")
    dim = _int(dim_node)
    if dim is None:
        return None
    if name in _GATHERS:
        return (name, dim, True)
    if name not in _REDUCTIONS:
        return None
    keep_node = keywords.get("keepdim")
    if keep_node is None and len(args) > 1 and name in _KEEPDIM_AFTER_DIM:
        keep_node = args[1]
    if len(args) > (2 if name in _KEEPDIM_AFTER_DIM else 1):
        return None
    kept = isinstance(keep_node, ast.Constant) and keep_node.value is True
    if keep_node is not None and not isinstance(keep_node, ast.Constant):
        return None  # keepdim decided at run time: not read from the text
    return (name, dim, kept)


def _is_module(node: ast.AST) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id in _MODULES


def _int(node) -> Optional[int]:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) is int:
        return -node.operand.value
    return None


def _explained(made, node, tensor, other_node, other, text: str) -> Optional[Violation]:
    name, dim, kept, call_text = made
    shape, other_shape = tuple(tensor.shape), tuple(other.shape)
    operand = _text(node, text)
    other_text = _text(other_node, text)
    if kept:
        if not -len(shape) <= dim < len(shape) or shape[dim % len(shape)] != 1:
            return None
        axis = dim % len(shape)
        fixed = shape[:axis] + shape[axis + 1:]
        if not _broadcasts(fixed, other_shape):
            return None
        how = (f"the gather along dim {dim} with an index of size 1 there kept that dim as 1" if name in _GATHERS
               else f"`keepdim=True` kept the {name} over dim {dim} as a 1")
        return Violation(
            kept_rule.CODE, ERROR,
            f"`{operand}` is {sizes_text(shape)}: {how}{_via(operand, call_text)}, and `{other_text}` "
            f"{sizes_text(other_shape)} has no such 1; {_met(shape, other_shape)}; drop the 1 with "
            f"`.squeeze({dim})` (giving {sizes_text(fixed)})")
    axis = dim % (len(shape) + 1) if -(len(shape) + 1) <= dim < len(shape) + 1 else None
    if axis is None:
        return None
    fixed = shape[:axis] + (1,) + shape[axis:]
    if not _broadcasts(fixed, other_shape):
        return None
    return Violation(
        rank_rule.CODE, ERROR,
        f"`{operand}` is {sizes_text(shape)}: the {name} over dim {dim}{_via(operand, call_text)} dropped that dim; "
        f"against `{other_text}` {sizes_text(other_shape)}, {_met(shape, other_shape)}; keep the dim with "
        f"`keepdim=True` (giving {sizes_text(fixed)}), or `.unsqueeze({dim})` the {name}")


def _via(operand: str, call_text: str) -> str:
    return "" if operand == call_text else f" (`{call_text}`)"


def _met(shape: tuple, other_shape: tuple) -> str:
    """Where the right-aligned dims disagree: what torch's 'non-singleton dimension' counts."""
    width = max(len(shape), len(other_shape))
    padded = (None,) * (width - len(shape)) + shape
    other_padded = (None,) * (width - len(other_shape)) + other_shape
    for k in range(width):
        a, b = padded[k], other_padded[k]
        if a is not None and b is not None and a != b and a != 1 and b != 1:
            return (f"broadcasting lines dims up from the right, so at dim {k} of the result its size {a} meets "
                    f"{b}")
    return "broadcasting lines dims up from the right"


def _broadcasts(a: tuple, b: tuple) -> bool:
    try:
        torch.broadcast_shapes(a, b)
    except RuntimeError:
        return False
    return True


# --- the name's last assignment in the running function ----------------------------------------

_TREES: dict = {}  # (filename, its text) -> parsed module


def _assigned(name: str, frame) -> Optional[Tuple[ast.AST, str]]:
    """(the value, the file's text) last assigned to `name` before the running line in the frame's own
    function (not in a nested one); None when there is none, or when a loop around the line assigns it again
    further down."""
    scope, source = _scope(frame)
    if scope is None:
        return None
    line = frame.f_lineno
    before, after_in_loop = None, False
    for node, loops in _statements(scope, ()):
        targets = _targets(node)
        if name not in targets:
            continue
        if node.lineno < line:
            if before is None or node.lineno > before.lineno:
                before = node
        elif node.lineno > line and any(loop.lineno <= line <= loop.end_lineno for loop in loops):
            after_in_loop = True
    if before is None or after_in_loop or not isinstance(before, ast.Assign) or len(before.targets) != 1:
        return None
    return before.value, source


def _targets(node: ast.AST) -> set:
    if isinstance(node, ast.Assign):
        return {t.id for target in node.targets for t in ast.walk(target) if isinstance(t, ast.Name)}
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
        return {node.target.id}
    if isinstance(node, (ast.For, ast.With)):
        items = [node.target] if isinstance(node, ast.For) else [i.optional_vars for i in node.items if i.optional_vars]
        return {t.id for item in items for t in ast.walk(item) if isinstance(t, ast.Name)}
    return set()


def _statements(node: ast.AST, loops: tuple):
    """Every statement under node, with the loops around it; nested functions and classes left out."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(child, ast.stmt):
            yield child, loops
        inner = loops + (child,) if isinstance(child, (ast.For, ast.While, ast.AsyncFor)) else loops
        yield from _statements(child, inner)


def _scope(frame) -> Tuple[Optional[ast.AST], str]:
    """(the running function's node, or the module's for module-level code; the file's text)."""
    code = frame.f_code
    source = "".join(linecache.getlines(code.co_filename, frame.f_globals))
    if not source:
        return None, ""
    key = (code.co_filename, source)
    tree = _TREES.get(key)
    if tree is None:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            return None, ""
        if len(_TREES) > 16:
            _TREES.clear()
        _TREES[key] = tree
    if code.co_name == "<module>":
        return tree, source
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == code.co_name:
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            if code.co_firstlineno in (first, node.lineno):
                return node, source
    return None, ""
