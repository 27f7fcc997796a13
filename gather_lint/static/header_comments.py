"""Parameter shapes stated in comment lines atop a function body: `# contexts: [B, D], actions: [B]`.

Only comment lines before the first statement count (after the docstring), and only when the whole
comment is `name: [shape]` pairs naming parameters: a line of prose is never read as a shape.
"""
from __future__ import annotations

import ast
import re
from typing import Dict

from ..dims import Shape
from .shape_text import parse_group
from .values import TensorVal

# `name: [shape]`, or several names sharing it (`actions, returns: [N]`)
_PAIR = re.compile(r"\s*((?:[A-Za-z_]\w*\s*,\s*)*[A-Za-z_]\w*)\s*:\s*([\[(][^\[\]()]*[\])])\s*")
_SEPARATOR = re.compile(r"\s*[,;]\s*")


def stated_shapes(source, func, params) -> Dict[str, Shape]:
    """{parameter: shape} from the standalone comment lines between the signature and the first statement."""
    body = func.body
    if not body:
        return {}
    first = body[0]
    start = func.lineno + 1
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        start = (first.end_lineno or first.lineno) + 1  # after the docstring
        first = body[1] if len(body) > 1 else None
    if first is None:
        return {}
    end = first.lineno - 1
    if getattr(first, "decorator_list", None):
        end = first.decorator_list[0].lineno - 1
    found: Dict[str, Shape] = {}
    for line in range(start, end + 1):
        comment = source.comment(line)
        if comment is None or not comment.standalone:
            continue
        for name, shape in _pairs(comment.text.lstrip("#")).items():
            if name in params:
                found.setdefault(name, shape)
    return found


def _pairs(text: str) -> Dict[str, Shape]:
    """`a: [B, D], b: [B]` (or `a, b: [B]`) as {name: shape}; {} unless the whole text is such pairs."""
    pairs: Dict[str, Shape] = {}
    position, text = 0, text.rstrip().rstrip(".")
    while position < len(text):
        match = _PAIR.match(text, position)
        if match is None:
            return {}
        shape = parse_group(match.group(2))
        if shape is None:
            return {}
        for name in match.group(1).split(","):
            pairs[name.strip()] = shape
        position = match.end()
        separator = _SEPARATOR.match(text, position)
        if position < len(text):
            if separator is None or separator.end() == position:
                return {}
            position = separator.end()
    return pairs


def bind(interp, func, params) -> None:
    """Give parameters without a fact the shape their header comment states (an informal fact)."""
    for name, shape in stated_shapes(interp.source, func, {p.arg for p in params}).items():
        known = interp.env.get(name)
        if known is not None and not (isinstance(known, TensorVal) and known.shape is None):
            continue
        fact = (known or TensorVal()).with_(shape=shape, origin=f"comment atop `{getattr(func, 'name', '')}`")
        interp.env[name] = fact
        interp.informal.add(name)
        if interp.trace is not None:
            interp.trace.append((func.lineno, name, fact))
