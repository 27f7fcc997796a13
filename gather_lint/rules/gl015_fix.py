"""GL015's fix where the indices were rounded: the cast to float16/bfloat16 becomes a cast to
float64, which holds every integer up to 2**53 exactly (`.half()` -> `.double()`,
`.to(torch.bfloat16)` -> `.to(torch.float64)`); the buffer stays a float tensor for its other uses."""
from __future__ import annotations

from typing import Optional

import libcst as cst

from ..codemods.base import PositionedEdits
from ..findings import Edit

_LOW = ("half", "bfloat16")
_LOW_DTYPES = ("float16", "half", "bfloat16")


class ExactCast(PositionedEdits):
    DESCRIPTION = "Cast indices to float64 instead of float16/bfloat16, which round them."
    KINDS = ("exact_cast",)
    TARGETS = (cst.Call,)

    def rewrite(self, original_node, updated_node, edit: Edit) -> Optional[cst.CSTNode]:
        func = updated_node.func
        if not isinstance(func, cst.Attribute):
            return None
        if func.attr.value in _LOW and not updated_node.args:
            return updated_node.with_changes(func=func.with_changes(attr=cst.Name("double")))
        if func.attr.value not in ("to", "type"):
            return None
        args = list(updated_node.args)
        for k, arg in enumerate(args):
            dtype = arg.value
            if (arg.keyword is None or arg.keyword.value == "dtype") and isinstance(dtype, cst.Attribute) \
                    and dtype.attr.value in _LOW_DTYPES:
                args[k] = arg.with_changes(value=dtype.with_changes(attr=cst.Name("float64")))
                return updated_node.with_changes(args=args)
        return None
