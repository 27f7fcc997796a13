"""Model parameters a function's docstring describes as causal language models.

`model: a causal LM returning logits (B, L, V)` (Google style, also `model (nn.Module): ...` and Sphinx's
`:param model: ...`) says what the code alone cannot: the logits at position t have read tokens 0..t and
predict token t+1. Only the parameter's own line is read, and a line that also says the opposite
(`non-causal`, `not causal`, `bidirectional`, `masked`) is left out.
"""
from __future__ import annotations

import ast
import re
from typing import Dict

_ENTRY = re.compile(r"^\s*(?::param\s+)?(\w+)\s*(?:\([^)]*\))?\s*:(.*)$")
_CAUSAL = ("causal", "autoregressive", "auto-regressive", "decoder-only", "next-token")
_NOT = ("non-causal", "noncausal", "not causal", "not a causal", "bidirectional", "masked", "encoder-only")


def causal_parameters(fn: ast.FunctionDef) -> Dict[str, str]:
    """{parameter: why it is causal} for the parameters whose docstring entry says so."""
    doc = ast.get_docstring(fn)
    if not doc or not any(word in doc.lower() for word in _CAUSAL):
        return {}
    params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    found: Dict[str, str] = {}
    for line in doc.splitlines():
        m = _ENTRY.match(line)
        if m is None or m.group(1) not in params:
            continue
        text = m.group(2).lower()
        if any(word in text for word in _CAUSAL) and not any(word in text for word in _NOT):
            found[m.group(1)] = "documented as a causal LM"
    return found
