"""Sequences joined along the token dim: `seq = torch.cat([prompt, completion], dim=1)`.

After the join, the completion's tokens are positions `[len(prompt):]` of `seq` and the prompt's are
`[:len(prompt)]`, so a model's logits on `seq`, cut at the prompt's length, can be checked against the
completion like any other window of one sequence. The prompt's length is read in the spellings people use
(`prompt.size(1)`, `prompt.shape[-1]`, a name assigned one of them) and named `len(prompt)`.
"""
from __future__ import annotations

import ast
import re
from typing import Optional, Tuple

_LENGTH = re.compile(r"^(\w+)\.(?:size\((?:1|-1)\)|shape\[(?:1|-1)\])$")


def joined(value) -> Optional[Tuple[str, str]]:
    """(first name, second name) of `torch.cat([a, b], dim=1)` / `torch.cat((a, b), -1)` / `torch.concat`, two
    plain names joined along the last dim of 2-d ids; None for anything else."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in ("cat", "concat")
            and isinstance(value.func.value, ast.Name) and value.func.value.id == "torch" and value.args):
        return None
    parts = value.args[0]
    dim = value.args[1] if len(value.args) > 1 else next((k.value for k in value.keywords if k.arg == "dim"), None)
    if not isinstance(parts, (ast.List, ast.Tuple)) or len(parts.elts) != 2 or not all(isinstance(p, ast.Name) for p in parts.elts):
        return None
    text = ast.unparse(dim) if dim is not None else ""
    if text not in ("1", "-1"):
        return None
    first, second = parts.elts
    return (first.id, second.id) if first.id != second.id else None


def length_symbol(node) -> Optional[str]:
    """`len(a)` for `a.size(1)`, `a.size(-1)`, `a.shape[1]`, `a.shape[-1]` (the token dim of 2-d ids)."""
    m = _LENGTH.match(ast.unparse(node)) if isinstance(node, (ast.Call, ast.Subscript)) else None
    return f"len({m.group(1)})" if m else None
