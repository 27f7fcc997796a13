"""Named sizes as integer linear combinations of products of names: `h*w + 1`, `T-1`, `2*M`.

The analysis names sizes by text (`B*T` for a flattened `[B, T]`, `w + 1` for values clamped to at most
`w`, `T-1` for a slice). Read back as ``{("h", "w"): 1, (): 1}``, two such sizes compare when their
difference is a constant: `h*w + 1` exceeds `h*w` whatever h and w are. Anything else is opaque.
"""
from __future__ import annotations

import ast
from functools import lru_cache
from typing import Dict, Optional, Tuple

Linear = Dict[Tuple[str, ...], int]  # monomial (sorted names; () for the constant) -> coefficient


def parse(name: str) -> Optional[Linear]:
    """`h*w + 1` -> {("h", "w"): 1, (): 1}; None for text that is no sum of products."""
    found = _parsed(name)
    return dict(found) if found is not None else None


@lru_cache(maxsize=4096)
def _parsed(name: str) -> Optional[Linear]:
    """Names repeat across a run (every comparison of two sizes asks): parsed once each."""
    if name.isidentifier():
        return {(name,): 1}  # the common case, without a parse
    try:
        tree = ast.parse(name.strip(), mode="eval").body
    except SyntaxError:
        return None
    return _linear(tree)


def _linear(node) -> Optional[Linear]:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return {(): node.value} if node.value else {}
    if isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
        return {(ast.unparse(node),): 1}  # an opaque atom: `x.size(1)` is one name
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _linear(node.operand)
        return None if inner is None else {k: -v for k, v in inner.items()}
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        left, right = _linear(node.left), _linear(node.right)
        if left is None or right is None:
            return None
        sign = 1 if isinstance(node.op, ast.Add) else -1
        return _plus(left, {k: sign * v for k, v in right.items()})
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        left, right = _linear(node.left), _linear(node.right)
        return _times(left, right) if left is not None and right is not None else None
    return None


def _times(a: Linear, b: Linear) -> Linear:
    """The product of two sums of products, multiplied out."""
    result: Linear = {}
    for x, p in a.items():
        for y, q in b.items():
            result = _plus(result, {tuple(sorted(x + y)): p * q})
    return result


def _plus(a: Linear, b: Linear) -> Linear:
    result = dict(a)
    for k, v in b.items():
        result[k] = result.get(k, 0) + v
        if result[k] == 0:
            del result[k]
    return result


def exceeds(a: str, b: str) -> bool:
    """a > b whatever the names stand for: their difference is a positive constant."""
    la, lb = parse(a), parse(b)
    if la is None or lb is None:
        return False
    difference = _plus(la, {k: -v for k, v in lb.items()})
    return set(difference) <= {()} and difference.get((), 0) > 0


def text(expr: Linear) -> str:
    """The size's name: products as `h*w`, terms by name, the constant last (`h*w + 1`, `T - 1`)."""
    if not expr:
        return "0"
    parts = []
    for monomial in sorted((k for k in expr if k), key=lambda k: (len(k), k)):
        coefficient = expr[monomial]
        factor = "*".join(monomial)
        term = factor if abs(coefficient) == 1 else f"{abs(coefficient)}*{factor}"
        parts.append((coefficient < 0, term))
    parts.sort(key=lambda part: part[0])  # positive terms first: `h*w - w`, not `-w + h*w`
    if () in expr:
        parts.append((expr[()] < 0, str(abs(expr[()]))))
    first_negative, first = parts[0]
    out = ("-" if first_negative else "") + first
    for negative, term in parts[1:]:
        out += f" {'-' if negative else '+'} {term}"
    return out


def combine(a: str, b: str, a_times: Optional[str] = None, plus: int = 0) -> Optional[Linear]:
    """`a * a_times + b + plus` (a_times None: `a + b + plus`), None when a name is opaque."""
    la, lb = parse(a), parse(b)
    if la is None or lb is None:
        return None
    if a_times is not None:
        factor = parse(a_times)
        if factor is None:
            return None
        la = _times(la, factor)
    return _plus(_plus(la, lb), {(): plus} if plus else {})


def evaluate(expr: Linear, known: Dict[str, int]) -> Optional[int]:
    """The value when every name in it is known."""
    total = 0
    for monomial, coefficient in expr.items():
        term = coefficient
        for name in monomial:
            if name not in known:
                return None
            term *= known[name]
        total += term
    return total
