"""A call's arguments bound to a function of the file's parameters, by name.

What the caller knows of each argument (a tensor's shape, a number, an instance) becomes a fact about
that parameter in the callee's run; parameters the call leaves out take their constant defaults. Used
where calls run a function of the file (calls.py) and where a `super().__init__(...)` runs the parent's
(class_lineage.py).
"""
from __future__ import annotations

import ast
from typing import Dict, Optional

from .config import DictVal
from .data_loaders import DatasetVal
from .modules import Cell, Conv, InstanceVal, KeepShape, LayerList, Recurrent, Sequential
from .numpy_values import ArrayVal
from .tensor_ops import DTYPE_NAMES, Repeated
from .values import DimVal, LayerVal, Literal, QualName, SeqVal, TensorVal


def bind(callee, args, kwargs, defaults: bool = True) -> Optional[Dict[str, object]]:
    """Caller facts by parameter name; None for calls that do not fit the signature."""
    params = [p.arg for p in callee.args.posonlyargs + callee.args.args]
    if len(args) > len(params) and callee.args.vararg is None:
        return None
    facts = {name: value for name, value in zip(params, args) if _is_fact(value)}
    for name, value in kwargs.items():
        if _is_fact(value) and name in params + [p.arg for p in callee.args.kwonlyargs]:
            facts[name] = value
    # flags this call leaves at their constant default (`flat=False`): branches they rule out are not run
    for name, default in _constant_defaults(callee) if defaults else ():
        if name not in facts and name not in params[:len(args)] and name not in kwargs:
            facts[name] = default
    return facts


def _default_pairs(callee):
    """(parameter, default expression) for every parameter that has a default."""
    a = callee.args
    positional = a.posonlyargs + a.args
    return list(zip(positional[len(positional) - len(a.defaults):], a.defaults)) + \
        [(p, d) for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None]


def _constant_defaults(callee):
    for param, default in _default_pairs(callee):
        if isinstance(default, ast.Constant) and (default.value is None or isinstance(default.value, (bool, str))):
            yield param.arg, Literal(default.value)


# SeqVal: `obs, act, rew = batch` in the callee; layers: `def predict(model, x): return model(x)`
FACTS = (TensorVal, DimVal, Literal, InstanceVal, DictVal, SeqVal, LayerVal, KeepShape, Sequential, Recurrent, LayerList,
          ArrayVal, Cell, Conv, Repeated, DatasetVal)
_PASSED_FUNCTIONS = ("torch.nn.functional.",)  # functions whose calls a callee can then check (losses, activations)


def _is_fact(value) -> bool:
    """A value worth binding to a callee's parameter; of functions, only those whose calls it can check
    (`criterion=nn.MSELoss()` stands for F.mse_loss)."""
    return isinstance(value, FACTS) or isinstance(value, QualName) and value.name.startswith(_PASSED_FUNCTIONS)


def number_defaults(callee, n_positional: int, kwargs, constants=None) -> Dict[str, object]:
    """Number, size-tuple and torch dtype defaults of the parameters this call leaves out (`pad_value: int = -1`,
    a module constant `pad_value=PAD_ID` among `constants`, `grid_hw=(4, 4)`, `dtype=torch.float16`): certain here."""
    if "**" in kwargs:
        return {}  # f(**options): any parameter may be among the options
    positional = callee.args.posonlyargs + callee.args.args
    found = {}
    for param, default in _default_pairs(callee):
        if param.arg in kwargs or (param in positional and positional.index(param) < n_positional):
            continue
        number = _number(default)
        if isinstance(default, ast.Name) and constants and isinstance(constants.get(default.id), DimVal):
            found[param.arg] = constants[default.id]
            continue
        if isinstance(default, ast.Attribute) and isinstance(default.value, ast.Name) and default.value.id == "torch" \
                and default.attr in DTYPE_NAMES:  # `dtype=torch.float16`: what `.to(dtype)` makes, as certain
            found[param.arg] = Literal("dtype:" + DTYPE_NAMES[default.attr])
            continue
        if isinstance(default, ast.Tuple) and default.elts:  # `grid_hw=(4, 4)`: a tuple of sizes, as certain
            numbers = [_number(e) for e in default.elts]
            if all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
                found[param.arg] = SeqVal(tuple(DimVal(n) for n in numbers))
            continue
        if isinstance(number, int) and not isinstance(number, bool):
            found[param.arg] = DimVal(number)
        elif isinstance(number, float):
            found[param.arg] = Literal(number)  # `alpha=0.25` left out: isinstance(alpha, float) is certain
    return found


def _number(node):
    """The number a literal default spells (`4`, `-1`, `0.25`), or None."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, (int, float)) and not isinstance(node.operand.value, bool):
        return -node.operand.value
    return None
