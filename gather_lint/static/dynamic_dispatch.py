"""`getattr(self, mode)(inputs)`: a forward that dispatches to one of its own methods by name.

Policy and value networks often take the method's name as an argument (`model(obs, "compute_actor")`)
and call `getattr(self, mode)(inputs)`. When the name is a known string, the call is `self.<name>(inputs)`,
so the caller's facts reach that method like any other `self.method(...)` call.
"""
from __future__ import annotations

import ast
from typing import Optional

from .values import Literal


def self_method(interp, func) -> Optional[str]:
    """The method name of `getattr(self, name)` when `name` evaluates to a known string."""
    if not (isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id == "getattr"
            and len(func.args) == 2 and not func.keywords
            and isinstance(func.args[0], ast.Name) and func.args[0].id == "self"):
        return None
    name = interp.expr(func.args[1])
    return name.value if isinstance(name, Literal) and isinstance(name.value, str) else None
