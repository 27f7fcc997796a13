"""Module functions a class stores on itself and calls through the attribute.

`self.loss_function = for_causal_lm_loss` in `__init__`, then `self.loss_function(logits, labels)` in
`forward`: the call runs the module function, so what token_shift knows of the function (which argument
it gathers from which, and the slices it takes) holds at the call. An attribute the file binds to
anything else as well is left out.
"""
from __future__ import annotations

import ast
from typing import Dict, Iterable, Optional


def aliases(assigns: Iterable[ast.Assign], functions) -> Dict[str, str]:
    """{attribute: function} for `self.<attribute> = <function>` among `assigns`, one function per attribute."""
    seen: Dict[str, Optional[str]] = {}
    for node in assigns:
        for target in node.targets:
            if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"):
                continue
            value = node.value.id if isinstance(node.value, ast.Name) and node.value.id in functions else None
            if target.attr in seen and seen[target.attr] != value:
                value = None  # bound to two things: which one a call runs is not known
            seen[target.attr] = value
    return {attr: fn for attr, fn in seen.items() if fn is not None}


def called_function(call: ast.Call, found: Dict[str, str]) -> Optional[str]:
    """The module function `self.<attribute>(...)` runs, when the attribute is one of `found`."""
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        return found.get(func.attr)
    return None
