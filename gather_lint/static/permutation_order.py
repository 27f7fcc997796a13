"""GL027's facts: a permutation, and the order a tensor's entries sit in along one axis.

``values, perm = x.sort(dim)`` (or ``perm = x.argsort(dim)``) makes a permutation along ``dim``, and
``values`` sits in its order: entry i of a row is entry ``perm[i]`` of ``x``'s row. ``x.gather(dim, perm)``
and ``x.index_select(dim, perm)`` of a tensor in the original order put it in the permutation's order too.
Ops that keep the layout (casts, clones, masked fills, softmax, cumsum, arithmetic with an unordered
operand) keep the mark. Indexing a tensor that is already in ``perm``'s order with ``perm`` again applies the
permutation twice (``x[perm[perm]]``), not its inverse: GL027 reads the two facts at the call.

Each mark is ``(token, axis)``: the token is the sort's position in the file, so two permutations never
pass for one; the axis is normalised when the rank is known, else the dim as written.
"""
import ast
import re
from dataclasses import replace

from ..contract import Site, mark_axis
from ..rules import gl027_permutation_applied_twice as rule
from ..rules import gl034_positions_of_another_order as other_order
from . import tensor_ops as ops
from .text_scan import file_test
from .values import DimVal, SeqVal, TensorVal

_MAKERS = ("sort", "argsort")
# ops whose result keeps the receiver's layout (entry i stays at i along every axis)
_KEEP_LAYOUT = {
    "float", "double", "half", "bfloat16", "long", "int", "to", "type", "type_as", "clone", "detach", "contiguous",
    "masked_fill", "masked_fill_", "clamp", "clamp_", "clip", "softmax", "log_softmax", "cumsum", "cumprod", "exp",
    "log", "sigmoid", "neg", "abs", "div", "mul", "add", "sub", "div_", "mul_", "add_", "sub_", "nan_to_num",
}
_KEEP_PERMUTATION = {"long", "int", "to", "type", "clone", "detach", "contiguous", "cpu", "cuda"}
_PERMUTED_BY = ("gather", "take_along_dim", "index_select")


def _made(name: str, owner: TensorVal, result, node: ast.Call, args: list, kwargs: dict):
    given = kwargs["dim"] if "dim" in kwargs else args[0] if args else None
    axis = mark_axis(owner.shape, -1 if given is None else ops.as_int(given))
    if axis is None:
        return result
    mark = ((node.lineno, node.col_offset), axis)
    if name == "argsort" and isinstance(result, TensorVal):
        return result.with_(permutation=mark)
    if name == "sort" and isinstance(result, SeqVal) and len(result.items) == 2 \
            and all(isinstance(item, TensorVal) for item in result.items):
        values, indices = result.items
        return SeqVal((values.with_(order=mark), indices.with_(permutation=mark)), result.names)
    return result


def after_method(name: str, owner: TensorVal, result, node: ast.Call, args: list, kwargs: dict):
    """The result of ``owner.<name>(*args)`` (or ``torch.<name>(owner, *args)``), with its marks."""
    if name in _MAKERS:
        return _made(name, owner, result, node, args, kwargs)
    if not isinstance(result, TensorVal):
        return result
    if owner.order is not None and result.order is None and name in _KEEP_LAYOUT and _same_rank(owner, result):
        result = result.with_(order=owner.order)
    if owner.permutation is not None and result.permutation is None and name in _KEEP_PERMUTATION \
            and _same_rank(owner, result):
        result = result.with_(permutation=owner.permutation)
    return result


# ops whose (indices) result holds positions picked along one axis of the receiver
_PICKS = ("multinomial", "argmax", "argmin", "topk", "max", "min")


def picked(interp, name: str, owner: TensorVal, result, node: ast.Call, args: list, kwargs: dict):
    """Positions picked along an axis of a tensor in its own order (GL034's fact): a multinomial draw over the
    last dim, argmax/argmin/max/min/topk over a given dim. Only where the function sorts nothing, so that no
    tensor of it can be a sorted copy whose mark an op the analysis does not follow has dropped."""
    if name not in _PICKS or owner.order is not None or owner.shape is None or owner.shape.variadic:
        return result
    # multinomial draws along the last dim; topk's dim follows k and defaults to the last
    given = -1 if name == "multinomial" else ops.as_int(
        ops._arg(args, kwargs, 1, "dim", DimVal(-1)) if name == "topk" else ops._arg(args, kwargs, 0, "dim"))
    axis = mark_axis(owner.shape, given) if given is not None else None
    if axis is None or _sorts(interp):
        return result
    if isinstance(result, SeqVal) and len(result.items) == 2 and isinstance(result.items[1], TensorVal):
        return SeqVal((result.items[0], _marked_positions(result.items[1], axis)), result.names)
    return _marked_positions(result, axis) if isinstance(result, TensorVal) and name != "topk" else result


def _marked_positions(t: TensorVal, axis: int) -> TensorVal:
    if t.domain is None:
        return t
    return t.with_(domain=replace(t.domain, original_positions=axis))


def _sorts(interp) -> bool:
    """Whether the function (or module body) being run spells a sort anywhere."""
    scope = interp.function
    if scope is None:
        return "sort" in interp.source.text
    return interp.source.spells("sort", scope.lineno, scope.end_lineno or scope.lineno)


def through_arith(left, right, result):
    """``sorted_logits / temperature``: the ordered operand's layout, when the other one has none."""
    if not isinstance(result, TensorVal) or result.order is not None:
        return result
    ordered = [v for v in (left, right) if isinstance(v, TensorVal) and v.order is not None]
    others = [v for v in (left, right) if isinstance(v, TensorVal) and v.order is None]
    if len(ordered) == 1 and _same_rank(ordered[0], result) and all(
            v.shape is None or ordered[0].shape is None or len(v.shape.dims) <= len(ordered[0].shape.dims)
            for v in others):
        return result.with_(order=ordered[0].order)
    return result


def gathered(site: Site, inp, index, result):
    """``x.gather(dim, perm)`` / ``x.index_select(dim, perm)`` of an unordered x: x in perm's order."""
    op_name, axis = site.op.name, mark_axis(site.input.shape, site.dim)
    if op_name not in _PERMUTED_BY or not isinstance(result, TensorVal) or not isinstance(index, TensorVal) \
            or index.permutation is None or not isinstance(inp, TensorVal) or inp.order is not None or axis is None:
        return result
    token, perm_axis = index.permutation
    if op_name == "index_select" and perm_axis == 0 and index.shape is not None and len(index.shape.dims) == 1:
        return result.with_(order=(token, axis))
    if op_name != "index_select" and perm_axis == axis:
        return result.with_(order=(token, axis))
    return result


def _same_rank(a: TensorVal, b: TensorVal) -> bool:
    """Unknown on either side counts as the same: the ops listed keep the rank whatever the shapes."""
    if a.shape is None or b.shape is None:
        return True
    return len(a.shape.dims) == len(b.shape.dims) and a.shape.variadic == b.shape.variadic


def subscripted(interp, node: ast.Subscript, owner: TensorVal, key, picked):
    """`x[perm]` with a 1-d permutation of x's first dim: in its order; already so: GL027."""
    one_dim = key.shape is not None and not key.shape.variadic and len(key.shape.dims) == 1 \
        if isinstance(key, TensorVal) else False
    if not isinstance(key, TensorVal) or key.permutation is None or isinstance(node.slice, ast.Tuple) \
            or not (key.permutation[1] == 0 or one_dim and key.permutation[1] == -1) \
            or key.shape is not None and not one_dim:
        return picked
    if owner.order == key.permutation:
        line = key.permutation[0][0]
        interp.flag(node, rule.check_subscript(interp.source.segment(node), interp.source.segment(node.slice), line),
                    node.slice)
        return picked
    if owner.order is None and isinstance(picked, TensorVal):
        return picked.with_(order=key.permutation)
    return picked


def randperm(result, node: ast.Call):
    """torch.randperm(n): a permutation of a first dim."""
    return result.with_(permutation=((node.lineno, node.col_offset), 0)) if isinstance(result, TensorVal) else result


_KEYED = re.compile(r"\[\s*(\w+)\s*\]")


_MASK_WRITE = re.compile(r"masked_fill|\]\s*=(?!=)")  # `x.masked_fill(m, v)`, `x[m] = v`


@file_test
def spelled_in(text: str) -> bool:
    """A permutation made (sort, argsort, randperm) and one name used twice as a whole subscript key
    (`grouped = x[order]` ... `y[order]`): the parts worth analysing for GL027 on subscripts."""
    if "sort(" not in text and "randperm(" not in text:
        return False
    if "sort(" in text and _MASK_WRITE.search(text):
        return True  # GL034: a mask made in the sorted order may fill the tensor that was sorted
    keys = _KEYED.findall(text)
    return len(keys) != len(set(keys))


def note_sorted(interp, name: str, owner, result) -> None:
    """Remember the tensor a sort was taken of, by its mark: that value itself is in the original order."""
    if name in _MAKERS and isinstance(owner, TensorVal):
        made = result.items[0].order if isinstance(result, SeqVal) and result.items \
            and isinstance(result.items[0], TensorVal) else getattr(result, "permutation", None)
        if made is not None:
            interp.sorted_inputs[made[0]] = owner


def check_mask(interp, node: ast.Call, name: str, owner, args: list, kwargs: dict, owner_node) -> None:
    """`logits.masked_fill(remove, v)` with `remove` built in the order of `logits.sort(...)`: the mask marks
    ranks, the fill lands on the vocabulary positions that happen to sit at those ranks' indices (GL034)."""
    if name not in ("masked_fill", "masked_fill_") or not isinstance(owner, TensorVal):
        return
    mask = ops._arg(args, kwargs, 0, "mask")
    _check_order(interp, node, owner, mask, owner_node, _mask_node(node))


def check_mask_write(interp, node: ast.Assign, target: ast.Subscript) -> None:
    """`logits[remove] = v`, the subscript form of the same fill (names only: reading them again costs nothing)."""
    if not isinstance(target.slice, ast.Name) or not isinstance(target.value, ast.Name):
        return
    owner, mask = interp.expr(target.value), interp.expr(target.slice)
    _check_order(interp, node, owner, mask, target.value, target.slice)


def _mask_node(node: ast.Call):
    """The mask argument as written: `x.masked_fill(m, v)`, `torch.masked_fill(x, m, v)`, `mask=m`."""
    for keyword in node.keywords:
        if keyword.arg == "mask":
            return keyword.value
    given_value = any(keyword.arg == "value" for keyword in node.keywords)
    at = len(node.args) - (1 if given_value else 2)
    return node.args[at] if 0 <= at < len(node.args) else None


def _check_order(interp, node, owner, mask, owner_node, mask_node) -> None:
    if not isinstance(mask, TensorVal) or mask.order is None or mask.dtype != "bool" or not isinstance(owner, TensorVal):
        return
    token, axis = mask.order
    if interp.sorted_inputs.get(token) is not owner or owner.order is not None:
        return  # only the very tensor that was sorted is known to be in the original order
    if owner.shape is None or mask.shape is None or owner.shape.variadic or mask.shape.variadic \
            or len(owner.shape.dims) != len(mask.shape.dims):
        return
    if mask_node is None:
        return
    interp.flag(node, other_order.check_mask(interp.source.segment(owner_node), interp.source.segment(mask_node),
                                             mask.shape, token[0], axis), None)
