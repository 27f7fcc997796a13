"""GL021: `arange(V)... > top_k` as the removal mask of a top-k filter keeps top_k + 1 tokens.

Found by syntax at the comparison: one side is a position tensor (`torch.arange(...)`, widened by
expand/unsqueeze/indexing, directly or through a name assigned once), the other a top-k count (a
name or attribute `top_k` or `topk`), with `positions > k` (or `k < positions`). The function
must remove what masks mark: a `masked_fill` / `masked_fill_` with a very negative value (a literal
`-inf` or below -1000, or a parameter defaulting to one). `>= k` and `< k` (a keep mask) are right.
"""
from __future__ import annotations

import ast
import re
from typing import Optional

from ..rules import gl021_top_k_keeps_one_extra as rule
from .normalised_axis import arange_steps
from .text_scan import file_test, positions, starts_word

_COUNTS = {"top_k", "topk"}  # a plain `k` is as often the last position kept (a prefix or window)
# `> top_k`, `> self.topk`, `top_k < ...` (not `<=`): matched at each `top` of the text, since an
# alternation opening with `\b` would be tried at every position
_COUNT_AT = re.compile(r"top_?k\b")
_LESS_AFTER = re.compile(r"\s*<[^=]")
_WIDENS = {"expand", "expand_as", "unsqueeze", "view", "reshape", "repeat", "to", "long", "type_as", "cuda"}


@file_test
def spelled_in(text: str) -> bool:
    if "top_k" not in text and "topk" not in text:
        return False
    for at in positions(text, "top"):
        count = _COUNT_AT.match(text, at)
        if count is None:
            continue
        before = text[max(0, at - 40):at].rstrip()
        if before.endswith("self."):
            before = before[:-5].rstrip()
        if before.endswith(">") or (starts_word(text, at) and _LESS_AFTER.match(text, count.end())):
            return True
    return False


def check(interp, node: ast.Compare) -> None:
    if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Gt, ast.Lt)) or \
            not isinstance(node.comparators[0] if isinstance(node.ops[0], ast.Gt) else node.left, (ast.Name, ast.Attribute)):
        return
    left, right = node.left, node.comparators[0]
    positions, bound = (left, right) if isinstance(node.ops[0], ast.Gt) else (right, left)
    # a script's top level counts as one scope (its names, its masked_fill)
    scope = interp.function if interp.function is not None else getattr(interp.module, "tree", None)
    if _count_name(bound) is None or scope is None:
        return
    if not _positions(positions, scope, node.lineno):
        return
    removal = _removal(scope)
    if removal is None:
        return
    segment = interp.source.segment
    fixed = f"{segment(positions)} >= {segment(bound)}"
    interp.flag(node, rule.check_positions(segment(node), segment(positions), segment(bound), segment(removal),
                                           removal.lineno, fixed), None)


def _count_name(node) -> Optional[str]:
    name = node.attr if isinstance(node, ast.Attribute) else (node.id if isinstance(node, ast.Name) else None)
    return name if name in _COUNTS else None


def _positions(node, function, line: int) -> bool:
    """`torch.arange(n)` possibly widened (`.expand_as(x)`, `[None, :]`, `.unsqueeze(0)`)."""
    return arange_steps(node, function, line, _WIDENS) is not None


def _removal(function) -> Optional[ast.Call]:
    """The function's `masked_fill(mask, <very negative>)`: it removes what a mask marks."""
    found = getattr(function, "_gather_lint_removal", False)
    if found is not False:
        return found
    negative_params = _negative_defaults(function)
    found = None
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("masked_fill", "masked_fill_") and len(node.args) == 2 and \
                _very_negative(node.args[1], negative_params):
            found = node
            break
    function._gather_lint_removal = found
    return found


def _negative_defaults(function) -> set:
    args = getattr(function, "args", None)
    if args is None:
        return set()  # a module
    positional = args.posonlyargs + args.args
    pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults)) + \
        [(p, d) for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    return {p.arg for p, d in pairs if _very_negative(d, set())}


def _very_negative(node, names: set) -> bool:
    if isinstance(node, ast.Name) and node.id in names:
        return True
    if isinstance(node, ast.Attribute) and node.attr in names:
        return False
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = node.operand
        if isinstance(inner, ast.Constant) and isinstance(inner.value, (int, float)) and not isinstance(inner.value, bool):
            return inner.value >= 1000
        return _infinite(inner)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float" and node.args:
        value = node.args[0]
        return isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value.strip().lower() == "-inf"
    return False


def _infinite(node) -> bool:
    """float("inf"), math.inf, torch.inf, np.inf"""
    if isinstance(node, ast.Attribute):
        return node.attr == "inf"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float" and node.args:
        value = node.args[0]
        return isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value.strip().lower() == "inf"
    return False
