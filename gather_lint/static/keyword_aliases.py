"""Keywords torch accepts under their NumPy spelling: `x.max(dim=-1, keepdims=True)` is `keepdim=True`,
`torch.argmax(x, axis=2)` is `dim=2`.

torch's reductions (sum, mean, max, min, amax, argmax, ...) take `keepdims` as an alias of `keepdim`. Read
as some other keyword, it dropped the kept dim, and a [B, 1] column of positions was taken for [B]. Ops
taking a dim (reductions, argmax, topk, sort, softmax, cat, stack, gather, index_select, squeeze, ...) take
`axis` for it.
"""
from __future__ import annotations

import ast

from ..ops import KEYWORD_ALIASES, torch_keywords

_ALIASES = {"keepdims": "keepdim", **KEYWORD_ALIASES}  # `axis=` is torch's for every op; `keepdims=` the reductions'


def canonical(kwargs: dict) -> dict:
    """The evaluated keywords of a torch call, each alias under torch's own name (as the signature model reads
    them: an alias given beside its name stays)."""
    return torch_keywords(kwargs, _ALIASES)


def keyword_nodes(call: ast.Call) -> dict:
    """{keyword: value node} of a call, each alias under torch's own name."""
    return canonical({k.arg: k.value for k in call.keywords if k.arg})
