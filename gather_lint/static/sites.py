"""Which calls are gather/scatter-family sites, and their normalised Site."""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Callable, Optional, Tuple

from ..contract import Site, TensorInfo, gather_axis
from ..dims import Shape, broadcast, normalize_dim
from ..ops import FUNCTION_NAMES, INDEX, OPS, Op, bind_arguments
from .tensor_ops import as_int
from .values import DimVal, Literal, QualName, TensorVal

TORCH = "torch"


def resolve_op(call: ast.Call, evaluate: Callable) -> Optional[Tuple[Op, bool, Optional[ast.AST]]]:
    """(op, method form?, receiver node) for a call that can be a family op; None for look-alikes."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in OPS:
        owner = evaluate(func.value)
        if isinstance(owner, QualName):
            if owner.name == TORCH and func.attr in FUNCTION_NAMES:
                return OPS[func.attr], False, None
            if owner.name == "torch.Tensor":
                return OPS[func.attr], False, None
            return None  # numpy, asyncio, accelerate, torch.distributed, ...: look-alikes
        if owner is None or isinstance(owner, TensorVal):
            return OPS[func.attr], True, func.value
        return None
    if isinstance(func, ast.Name):
        target = evaluate(func)
        if isinstance(target, QualName) and target.name.startswith("torch."):
            name = target.name.rsplit(".", 1)[1]
            if name in FUNCTION_NAMES and target.name in (f"torch.{name}", f"torch.Tensor.{name}"):
                return OPS[name], False, None
    return None


def bind_call(op: Op, method: bool, receiver: Optional[ast.AST], call: ast.Call):
    """Argument nodes by parameter name; None when the call cannot be (dim, index)-shaped."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    bound = bind_arguments(op, call.args, {k.arg: k.value for k in call.keywords}, method)
    if bound is None:
        return None
    if method:
        bound["input"] = receiver
    if op.index_param not in bound or "input" not in bound:
        return None
    if "dim" not in bound and op.family != "take_along_dim":
        return None
    return bound


def _info(value, text: str) -> TensorInfo:
    if isinstance(value, TensorVal):
        return TensorInfo(value.shape, value.dtype, value.domain, text, shift=value.shift, filled=value.filled,
                          non_negative=value.non_negative, order=value.order, permutation=value.permutation,
                          signed=value.signed)  # by keyword: TensorInfo grows fields
    return TensorInfo(text=text)


def build_site(op: Op, bound: dict, evaluate: Callable, segment: Callable) -> Optional[Tuple[Site, dict]]:
    """The contract's view of one call, plus the arguments' abstract values."""
    values = {name: evaluate(node) for name, node in bound.items()}
    if not _may_be_tensor(values["input"]) or not _may_be_tensor(values[op.index_param]):
        return None
    dim_value = values.get("dim")
    dim_given = "dim" in bound and not (isinstance(dim_value, Literal) and dim_value.value is None)
    if dim_given and not isinstance(dim_value, DimVal) and dim_value is not None:
        return None  # dim is a tensor, string, list...: not this op's (dim, index) signature
    payload = None
    name = op.payload_param
    if name and name in values and isinstance(values[name], TensorVal):
        payload = _info(values[name], segment(bound[name]))
    if op.name == "scatter" and "value" in values and isinstance(values["value"], TensorVal):
        payload = _info(values["value"], segment(bound["value"]))
    site = Site(
        op=op,
        input=_info(values["input"], segment(bound["input"])),
        index=_info(values[op.index_param], segment(bound[op.index_param])),
        dim=as_int(dim_value) if dim_given else None,
        dim_given=dim_given,
        payload=payload,
        options={k: v.value for k, v in values.items() if k in ("reduce", "include_self") and isinstance(v, Literal)},
    )
    site = _guesses_that_hold(site)
    if op.name == "scatter" and "value" in values:
        site.options["payload_from"] = "value"  # value= is a scalar torch converts, never a src
    if op.name == "scatter" and any(_is_number(values.get(k)) for k in ("src", "value")):
        site.options["number_payload"] = True  # scatter_(d, I, 1), the one-hot idiom (GL001's fix)
    return site, values


def _guesses_that_hold(site: Site) -> Site:
    """A rank kept only as a guess (`model(x) * support` has at least the dims of `support`: the unknown operand
    may bring more) stands where the call agrees with it: the dim is within it, and the other tensor has that
    rank (gather, scatter, take_along_dim) or the index is a vector (index_select and the like). Otherwise the
    disagreement is what the guess cannot tell apart from a mistake: the shape is not read."""
    ranks = {name: len(info.shape.dims) for name, info in (("input", site.input), ("index", site.index))
             if info.shape is not None and not info.shape.variadic}
    changed = {}
    for name, other in (("input", "index"), ("index", "input")):
        info = getattr(site, name)
        if info.shape is None or not info.shape.guessed or name not in ranks:
            continue
        rank = ranks[name]
        if site.op.family == INDEX:
            holds = rank <= 1 if name == "index" else site.dim is None or -rank <= site.dim < rank
        else:
            holds = ranks.get(other) == rank and (site.dim is None or -rank <= site.dim < rank)
        if not holds:
            changed[name] = replace(info, shape=None)
    return replace(site, **changed) if changed else site


def _is_number(v) -> bool:
    if isinstance(v, DimVal):
        return as_int(v) is not None
    return isinstance(v, Literal) and type(v.value) in (int, float)


def _may_be_tensor(value) -> bool:
    return value is None or isinstance(value, TensorVal)


def _selected(inp):
    """What gather / index_select read out of a table of ids keeps: the size those ids were made for
    (`knn_ids[target]` are still cell ids among num_cells)."""
    domain = inp.domain if isinstance(inp, TensorVal) else None
    if domain is None or domain.size is None or domain.category or domain.sentinel is not None:
        return None
    return domain


def result_of(site: Site, values: dict) -> Optional[TensorVal]:
    """The op's own result: gather takes the index's shape, scatter/index ops keep the input's."""
    inp = values.get("input")
    dtype = inp.dtype if isinstance(inp, TensorVal) else None
    family = site.op.family
    if family == "gather":
        idx, axis = site.index.shape, gather_axis(site)
        if axis is None and site.dim is not None and idx is not None and not idx.variadic and site.input.shape is None:
            axis = normalize_dim(site.dim, len(idx.dims))  # gather's index has the input's rank
        kept = axis if idx is not None and not idx.variadic and axis is not None and axis < len(idx.dims) \
            and idx.dims[axis] == 1 and len(idx.dims) >= 2 else None
        return TensorVal(site.index.shape, dtype, _selected(inp), kept_singleton=kept)
    if family == "scatter" or site.op.name in ("index_add", "index_copy", "index_fill"):
        return TensorVal(site.input.shape, dtype)
    axis = gather_axis(site)
    shape = site.input.shape
    if site.op.name == "index_select":
        idx = site.index.shape
        if axis is None or idx is None or idx.variadic or len(idx.dims) > 1:
            return TensorVal(None, dtype, _selected(inp))
        if not shape.dims:  # a 0-d input: torch reads its one value (the index must hold one)
            return TensorVal(Shape(()), dtype, _selected(inp))
        count = idx.dims[0] if idx.dims else 1
        dims = list(shape.dims)
        dims[axis] = count
        return TensorVal(Shape(tuple(dims)), dtype, _selected(inp))
    if family == "take_along_dim":
        idx = site.index.shape
        if axis is None or idx is None or idx.variadic or len(idx.dims) != len(shape.dims) or not shape.dims:
            return TensorVal(None, dtype)  # (torch refuses a 0-d input)
        dims = []
        for k, (a, b) in enumerate(zip(shape.dims, idx.dims)):
            if k == axis:
                dims.append(b)
            else:
                joined = broadcast(Shape((a,)), Shape((b,)))
                dims.append(joined.dims[0] if joined else None)
        # take_along_dim(x, ids.unsqueeze(-1), dim=-1) keeps gather's singleton too (GL006)
        kept = axis if idx.dims[axis] == 1 and len(idx.dims) >= 2 else None
        return TensorVal(Shape(tuple(dims)), dtype, kept_singleton=kept)
    return TensorVal(None, dtype)

