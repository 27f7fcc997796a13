"""A module's class docstring documenting what its forward takes.

A class docstring whose Args give `node_feats (FloatTensor of shape (N, D))`, with
`def forward(self, node_feats, batch)` below: the inputs are described once, on the class, the way
nn.Module docs read (the call runs forward). Only forward / __call__ take these facts, and only for
parameters that __init__ does not also take (a class docstring's Args are often the constructor's).
"""
from __future__ import annotations

import ast
from typing import Dict

from .shape_text import parse_docstring

_CALLED = ("forward", "__call__")


def call_inputs(module, node) -> Dict[str, tuple]:
    """{param: (Shape, dtype)} the class docstring gives for the parameters of `node`, a forward."""
    if module is None or getattr(node, "name", None) not in _CALLED:
        return {}
    class_name = module.class_of.get(node)
    cls = module.classes.get(class_name) if class_name is not None else None
    doc = ast.get_docstring(cls, clean=False) if cls is not None else None
    if not doc:
        return {}
    init = module.methods.get((class_name, "__init__"))
    constructor = {p.arg for p in _params(init)} if init is not None else set()
    wanted = [p.arg for p in _params(node) if p.arg not in constructor and p.arg != "self"]
    return parse_docstring(doc, wanted) if wanted else {}


def _params(node) -> list:
    args = node.args
    return list(args.posonlyargs) + list(args.args) + list(args.kwonlyargs)
