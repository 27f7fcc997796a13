"""Why torch rejected a `topk(k, dim)` call: k larger than the dim holds (GL035).

torch says 'selected index k out of range' with neither k, the dim nor its size. Asked only once torch has
raised, so a valid call pays nothing.
"""
from __future__ import annotations

from typing import Optional

import torch

from ..contract import Violation
from ..dims import normalize_dim, sizes_text
from ..rules import gl035_k_exceeds_dim as rule


def rejected_topk(args, kwargs, torch_message: str) -> Optional[Violation]:
    """The cause of torch's rejection of topk(*args, **kwargs) (`torch.topk(x, k)` and `x.topk(k)` alike: the
    input comes first), or None when it is not a k past the size."""
    if "k out of range" not in torch_message:
        return None
    x = args[0] if args else kwargs.get("input")
    k = args[1] if len(args) > 1 else kwargs.get("k")
    dim = args[2] if len(args) > 2 else kwargs.get("dim", -1)
    if not isinstance(x, torch.Tensor) or type(k) is not int or type(dim) is not int:
        return None
    axis = normalize_dim(dim, max(x.dim(), 1))
    if axis is None:
        return None
    size = x.shape[axis] if x.dim() else 1  # a 0-d tensor holds one entry along its one valid dim
    if k <= size:
        return None
    return rule.check_count(f"topk(k={k}, dim={dim})", "topk", k, size, axis, "", sizes_text(x.shape))
