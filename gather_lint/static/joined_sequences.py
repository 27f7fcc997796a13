"""Sequences joined along the token dim: `seq = torch.cat([prompt, completion], dim=1)`.

After the join, the completion's tokens are positions `[len(prompt):]` of `seq` and the prompt's are
`[:len(prompt)]`, so a model's logits on `seq`, cut at the prompt's length, can be checked against the
completion like any other window of one sequence. The prompt's length is read in the spellings people use
(`prompt.size(1)`, `prompt.shape[-1]`, a name assigned one of them) and named `len(prompt)`.
"""
from __future__ import annotations

import ast
import re
from typing import Dict, Optional, Tuple

from . import torch_aliases
from ..contract import Violation
from ..rules import gl007_shift_misalignment as rule
from .text_scan import match_lines
from .tree_walk import own_nodes, scopes

_LENGTH = re.compile(r"^(\w+)\.(?:size\((?:1|-1)\)|shape\[(?:1|-1)\])$")
# `seq = torch.cat([a, b], dim=1)` in the text: where a joined sequence may be handed to a function
_JOIN_LINE = re.compile(r"torch\.(?:cat|concat)\(\s*[\[(]\s*\w+\s*,\s*\w+\s*[\])]\s*,\s*(?:dim\s*=\s*)?-?1\s*\)")


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
    sized = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "size" or \
        isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape"
    m = _LENGTH.match(ast.unparse(node)) if sized else None  # unparse only what can be a length
    return f"len({m.group(1)})" if m else None


def handed(tree: ast.Module, text: str) -> Dict[str, Tuple[str, str, str, str]]:
    """Module functions that every call in the file hands a joined sequence and its first part's length
    (`score(model, seq, prompt.size(1))` after `seq = torch.cat([prompt, completion], dim=1)`):
    name -> (sequence parameter, length parameter, first part, second part)."""
    lines = match_lines(torch_aliases.expanded(text), _JOIN_LINE)  # `T.cat(...)` too
    if not lines:
        return {}
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    if not functions:
        return {}  # model files: every function is a method
    bound: Dict[str, Optional[Tuple[str, str, str, str]]] = {}
    for scope in scopes(tree):
        first, last = getattr(scope, "lineno", 1), getattr(scope, "end_lineno", None) or 1
        if scope is not tree and not any(first <= line <= last for line in lines):
            continue
        nodes = own_nodes(scope)
        joins, lengths, stores = {}, {}, {}
        for node in nodes:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                name = node.targets[0].id
                stores[name] = stores.get(name, 0) + 1
                parts = joined(node.value)
                if parts is not None:
                    joins[name] = parts
                elif length_symbol(node.value) is not None:
                    lengths[name] = length_symbol(node.value)
        joins = {k: v for k, v in joins.items() if stores[k] == 1}
        for node in nodes:
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions:
                name = node.func.id
                found = _bound(functions[name], node, joins, lengths, stores)
                if name in bound and bound[name] != found:
                    found = None
                bound[name] = found
    return {name: found for name, found in bound.items() if found is not None}


def _bound(fn: ast.FunctionDef, call: ast.Call, joins, lengths, stores) -> Optional[Tuple[str, str, str, str]]:
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if any(isinstance(a, ast.Starred) for a in call.args) or len(call.args) > len(params):
        return None
    given = dict(zip(params, call.args))
    given.update({k.arg: k.value for k in call.keywords if k.arg in params})
    sequence = next(((p, joins[v.id]) for p, v in given.items() if isinstance(v, ast.Name) and v.id in joins), None)
    if sequence is None:
        return None
    param, (first, second) = sequence
    for p, v in given.items():
        length = length_symbol(v) or (lengths.get(v.id) if isinstance(v, ast.Name) and stores.get(v.id) == 1 else None)
        if length == f"len({first})":
            return param, p, first, second
    return None


def first_token_dropped(cut: str, sequence: str, first: str, second: str) -> Violation:
    return Violation(
        rule.CODE, rule.SEVERITY,
        f"`{cut}` cuts per-token scores that start at position 1 of `{sequence}` (the logits at t score token "
        f"t + 1) at the length of `{first}`: it starts one token into `{second}`, so the score of `{second}`'s "
        f"first token is left out, silently; after the shift the slice starts at `len({first}) - 1`",
        help=f"start the slice one position earlier (`len({first}) - 1`)",
    )
