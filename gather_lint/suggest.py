"""Source text for the code a message suggests: `a + b` followed by `.unsqueeze(1)` must read
`(a + b).unsqueeze(1)`, and `-` before `v + 1` must read `-(v + 1)`. One place for every rule."""
from __future__ import annotations

import ast
from functools import lru_cache

# Expressions that bind tighter than a method call or a unary sign: no parentheses needed.
_ATOMIC = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant, ast.List, ast.Tuple, ast.Dict,
           ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.JoinedStr)


@lru_cache(maxsize=512)
def needs_parentheses(text: str) -> bool:
    """True when `text` is an expression that a method call or sign written after/before it would split."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False  # not code (a role name, a shortened text): leave it as it is
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, complex)):
        return True  # `1.real` does not parse, and `-1` is a UnaryOp anyway
    return not isinstance(node, _ATOMIC)


def operand(text: str) -> str:
    """`text` ready to have `.method(...)` appended or a sign put before it."""
    return f"({text.strip()})" if needs_parentheses(text) else text


def method_call(receiver: str, call: str) -> str:
    """`receiver.call`, e.g. method_call("actions + 0", "unsqueeze(1)") == "(actions + 0).unsqueeze(1)"."""
    return f"{operand(receiver)}.{call}"


def negated(text: str) -> str:
    return f"-{operand(text)}"
