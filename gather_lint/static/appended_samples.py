"""Ids a loop appends to the ids it reads again: `idx = torch.cat((idx, idx_next), dim=1)`.

An autoregressive loop samples the next ids from the model's output (`torch.multinomial(probs, 1)`,
`logits.argmax(-1)`) and appends them to the ids the model reads on the next step. From the second
step on, those ids hold the values the samples can take: positions in the output's last dim. An
output whose width is not the vocabulary (the embedding width read as logits) then looks up ids past
the token table. Only a top-level `name = torch.cat(...)` of the loop body that keeps `name` in
front is followed, and only samples with a known range of positions.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..contract import Domain
from ..dims import dim_text, value

_CATS = ("cat", "concat", "concatenate")


def carried(interp, body, name: str) -> Optional[Domain]:
    """The range of the positions the loop body appends to `name`, read with `interp` at the end of one
    run of the body; None when it appends nothing known."""
    for stmt in body:
        piece = _appended(stmt, name)
        if piece is None:
            continue
        domain = getattr(interp.expr(piece), "domain", None)
        if domain is None or domain.size is None or domain.category or domain.sentinel is not None or not domain.origin:
            return None
        top = value(domain.size)
        span = f"0 to {top - 1}" if top is not None else f"0 to {dim_text(domain.size)} - 1"
        return Domain(domain.size, origin=f"values that include {domain.origin} ({span}, appended at line "
                                          f"{stmt.lineno})", repeats=True)
    return None


# what the appended piece may be spelled with around the sampled ids: their values stay
_KEEPS_VALUES = ("unsqueeze", "view", "reshape", "long", "to", "type_as")


def _appended(stmt, name: str):
    """The piece node of `name = torch.cat((name, piece), ...)`; else None."""
    if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name) \
            or stmt.targets[0].id != name:
        return None
    call = stmt.value
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) or call.func.attr not in _CATS \
            or not isinstance(call.func.value, ast.Name) or call.func.value.id != "torch" or not call.args:
        return None
    parts = call.args[0]
    if not isinstance(parts, (ast.Tuple, ast.List)) or len(parts.elts) != 2:
        return None
    first, second = parts.elts
    if isinstance(first, ast.Name) and first.id == name and _sampled_name(second):
        return second
    return None


def _sampled_name(node) -> bool:
    """A name, through value-keeping methods and `[:, None]`: `nxt`, `nxt.unsqueeze(-1)`, `nxt[:, None]`."""
    while True:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _KEEPS_VALUES:
            node = node.func.value
        elif isinstance(node, ast.Subscript):
            node = node.value
        else:
            return isinstance(node, ast.Name)
