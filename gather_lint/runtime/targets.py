"""The torch function objects the runtime mode checks, each mapped to its entry in the ops table."""
from typing import Dict, Tuple

import torch
import torch.nn.functional as F

from ..ops import OPS

EMBEDDING = "embedding"


def build() -> Dict[object, Tuple[object, str]]:
    """{function object: (Op or EMBEDDING, spelling)}: torch.gather and torch.Tensor.gather are distinct objects."""
    table: Dict[object, Tuple[object, str]] = {}
    for name, op in OPS.items():
        for owner, prefix in ((torch, "torch."), (torch.Tensor, "Tensor.")):
            fn = getattr(owner, name, None)
            if fn is not None and not (owner is torch and not op.has_function):
                table[fn] = (op, prefix + name)
    table[F.embedding] = (EMBEDDING, "F.embedding")
    return table


TARGETS = build()
