"""Value ranges that common idioms give an index, beyond the positions top-k and argmax return.

`labels[mask] = 255` (an ignore label) puts 255 among the values: out of range for a dim of 255 or
fewer entries, wherever the labels are used as an index afterwards.

`mask.sum(dim)` of a boolean mask counts the true entries of each row: a length in [0, n] for a dim
of size n. As an index it is one past the last valid position, so a full row reads position n:
out of range (`hidden.gather(1, lengths...)` needs `lengths - 1`).
"""
from __future__ import annotations

import ast

from dataclasses import replace
from typing import Optional

from ..contract import Domain
from .. import linear_sizes
from ..dims import Sym, dim_text, normalize_dim, value
from .signs import never_negative
from .values import INCLUDES, DimVal, Literal, TensorVal


def one_more(d):
    """`d + 1`: an int, or a size written as one more than `d`."""
    size = value(d)
    if isinstance(d, int):
        return d + 1
    return Sym(f"{dim_text(d)} + 1", size=size + 1 if size is not None else None)


def length_of_mask(owner: TensorVal, result, dim, text: str):
    """`mask.sum(dim)` of a bool mask: values in [0, n], n the size of the summed dim."""
    if not isinstance(result, TensorVal) or owner.dtype != "bool" or owner.shape is None or owner.shape.variadic:
        return result
    axis = normalize_dim(dim, len(owner.shape.dims)) if isinstance(dim, int) else None
    if axis is None:
        return result
    n = owner.shape.dims[axis]
    if n is None:
        return result
    origin = (f"counts of `{text}` along dim {axis} (0 to {dim_text(n)}): lengths, one past the last valid "
              f"position; use `- 1` for the last one")
    return result.with_(domain=Domain(one_more(n), origin=origin))


def from_bool(owner, result, method: str, line: int, text: str):
    """`(probs > 0.5).long()`: a boolean cast to an integer type holds 0 and 1 only."""
    if not isinstance(owner, TensorVal) or not isinstance(result, TensorVal) or owner.dtype != "bool" \
            or result.dtype not in ("int64", "int32", "int16", "int8", "uint8"):
        return result
    origin = f"0 and 1 (the boolean `{text}` cast with `.{method}()` at line {line})"
    return result.with_(domain=Domain(2, origin=origin, repeats=True, binary=True))


def clamped(result, upper, line: Optional[int] = None) -> Optional[TensorVal]:
    """`.clamp(max=...)` bounds the values anew: the range they were made with no longer holds. An
    integer bound m is reached (the clamp is there because values go past it): a size of m + 1."""
    bound = upper.dim if isinstance(upper, DimVal) else None
    if isinstance(result, TensorVal) and bound is not None and line is not None and value(bound) != -1 \
            and result.dtype not in ("bool", "float16", "bfloat16", "float32", "float64"):
        origin = f"values clamped to at most {dim_text(bound)} (the clamp at line {line}), {dim_text(bound)} included"
        if result.domain is not None and result.domain.repeats and result.domain.origin:
            origin = f"{result.domain.origin}, then {origin}"  # why they repeat still matters (GL013)
        return result.with_(domain=replace(result.domain or Domain(), size=one_more(bound), origin=origin, category=False))
    if isinstance(result, TensorVal) and result.domain is not None and upper is not None \
            and not (isinstance(upper, Literal) and upper.value is None):
        return result.with_(domain=replace(result.domain, size=None))
    return result


def written(owner: TensorVal, constant, line: int) -> TensorVal:
    """`x[...] = c`, `x.masked_fill(m, c)`, `torch.where(m, c, x)` with c > 0 (an int, or a named size such
    as `num_classes`) into an integer tensor: its values now reach c."""
    if owner.dtype is None or owner.dtype in ("bool", "float16", "bfloat16", "float32", "float64"):
        return owner
    if not isinstance(constant, int):
        return _written_size(owner, constant, line)
    if constant <= 0:
        return owner
    old = owner.domain
    if constant == 1 and old is not None and old.binary:
        return owner  # a 1 written into a 0/1 mask: still one
    if constant == 1 and owner.filled == "zeros" and old is None:
        # ones written into zeros (`mask[i] = 1` in a loop): a 0/1 mask kept in an integer type
        return owner.with_(domain=Domain(2, origin=f"0 and 1 (1 written into zeros at line {line})", repeats=True,
                                         binary=True))
    size = constant + 1
    if old is not None and old.size is not None:
        known = value(old.size)
        if known is None:
            return owner  # a named range of unknown size: cannot tell which bound is larger
        if known >= size and not isinstance(old.size, int):
            return owner  # written within a named range (`ids[0] = 3` for ids < V = 50): it stays
        size = max(size, known)
    origin = f"{_WRITTEN}{constant} (written at line {line})"
    base = old or Domain()
    return owner.with_(domain=replace(base, size=size, origin=origin, category=False, binary=False))


def through_arith(left, right, symbol: str, result, line: int, text: str = ""):
    """Signs and written values through arithmetic: a 0/1 mask times a positive constant holds 0 and it
    (`mask.long() * 255`); `1 - mask` is a 0/1 mask; sums and products of values >= 0 are >= 0; and a value
    >= 0 added to values that reach c reaches c or more (`(1 - void) * labels + void * num_classes`)."""
    if not isinstance(result, TensorVal):
        return result
    if symbol in ("*", "&") and _binary(left) and _binary(right) and result.dtype not in _FLOATS:
        # both 0/1: so is their product (`(w >= m).long() * (h >= m).long()`, a keep mask kept as integers)
        origin = f"0 and 1 (a product of two 0/1 masks at line {line})"
        return result.with_(domain=Domain(2, origin=origin, repeats=True, binary=True))
    if symbol == "*":
        for mask, other in ((left, right), (right, left)):
            if _binary(mask) and isinstance(other, DimVal) and other.dim is not None and (value(other.dim) or 0) > 1:
                return written(result.with_(domain=None), other.dim if value(other.dim) is None else value(other.dim), line)
    if symbol == "-" and isinstance(left, DimVal) and value(left.dim) == 1 and _binary(right):
        return result.with_(domain=replace(right.domain, origin=f"1 minus {right.domain.origin}"))
    shifted = _written_top_shifted(left, right, symbol, result)
    if shifted is not None:
        return shifted
    result = _combined_range(left, right, symbol, result, text)
    if symbol not in ("*", "+") or not (never_negative(left) and never_negative(right)):
        return result
    result = result.with_(non_negative=True)
    for reach, other in ((left, right), (right, left)):
        if symbol == "+" and isinstance(reach, TensorVal) and reach.domain is not None and reach.domain.size is not None \
                and reach.domain.origin.startswith(_WRITTEN) and isinstance(other, TensorVal):
            reached = reach.domain.origin[len(_WRITTEN):]  # "19 (written at line 14)"
            return result.with_(domain=replace(reach.domain, origin=f"values that reach {reached} or more"))
    return result


def _written_top_shifted(left, right, symbol: str, result: TensorVal) -> Optional[TensorVal]:
    """`t + 20` of values whose largest the code wrote (a step of a schedule listed entry by entry, taken in turn by a
    loop): that largest is among them, so the sum reaches it plus 20. Values that are positions of a dim reach
    their top only when the last is picked: no evidence, left alone (`best + 1`)."""
    if symbol != "+" or result.domain is not None and result.domain.size is not None or result.dtype in _FLOATS:
        return None
    for ranged, other in ((left, right), (right, left)):
        domain = ranged.domain if isinstance(ranged, TensorVal) else None
        step = value(other.dim) if isinstance(other, DimVal) else None
        if domain is None or not domain.bound_only or domain.box or not isinstance(value(domain.size), int) \
                or domain.sentinel is not None or domain.category or type(step) is not int or step <= 0:
            continue
        top = value(domain.size) - 1 + step
        origin = f"{domain.origin}, plus {step}: {top} among them"
        return result.with_(domain=replace(domain, size=top + 1, origin=origin))
    return None


def _combined_range(left, right, symbol: str, result: TensorVal, text: str) -> TensorVal:
    """Ranges through `rows * width + cols` (flat positions): values in [0, R) times w reach (R - 1) * w; two
    ranges added reach the sum of their tops. Named sizes stay named (`h*w + 1`). (`best + 1` of an argmax
    reaches past the dim only when the best is the last: no evidence of a mistake, left alone.)"""
    if result.domain is not None and result.domain.size is not None or result.dtype in _FLOATS:
        return result
    if any(isinstance(side, TensorVal) and side.domain is not None and side.domain.bound_only and not side.domain.box
           for side in (left, right)):
        return result  # the largest of values written out bounds them; parts of them need not reach it together
    top = None
    if symbol == "*":
        ranged, factor = (left, right) if _ranged(left) else (right, left)
        if _ranged(ranged) and isinstance(factor, DimVal) and factor.dim is not None and (value(factor.dim) or 1) > 0:
            top = linear_sizes.combine(f"({ranged.domain.size}) - 1", "0", a_times=str(factor.dim))
    elif symbol == "+" and _ranged(left) and _ranged(right):
        top = linear_sizes.combine(str(left.domain.size), str(right.domain.size), plus=-2)
    if top is None:
        return result
    bases = []
    for side in (left, right):
        if _ranged(side) and _base(side.domain.origin) not in bases:
            bases.append(_base(side.domain.origin))
    origin = f"{' and '.join(bases)}{_COMBINED}{text}` (0 to {linear_sizes.text(top)})"
    return result.with_(domain=Domain(_size(top, left, right), origin=origin, repeats=True))


_FLOATS = ("bool", "float16", "bfloat16", "float32", "float64")
_COMBINED = ", combined into `"


def _base(origin: str) -> str:
    """What made the values, without the arithmetic an earlier step already described."""
    return origin.split(_COMBINED)[0]


def _ranged(v) -> bool:
    """Values of a known range [0, size): positions, clamped or drawn values (no ids of a vocabulary, no
    padding put in, no float)."""
    return isinstance(v, TensorVal) and v.domain is not None and v.domain.size is not None and not v.domain.category \
        and v.domain.sentinel is None and v.domain.made_float is None and v.dtype not in _FLOATS


def _size(top, left, right):
    """top + 1: an int when no name is left, else a name whose value is known when the names' are."""
    size = linear_sizes.combine(linear_sizes.text(top), "1")
    if set(size) <= {()}:
        return size.get((), 0)
    known = {}
    for side in (left, right):
        for d in (side.domain.size if isinstance(side, TensorVal) and side.domain is not None else None,
                  side.dim if isinstance(side, DimVal) else None):
            if isinstance(d, Sym) and d.size is not None:
                known[d.name] = d.size
    return Sym(linear_sizes.text(size), size=linear_sizes.evaluate(size, known))


def _binary(v) -> bool:
    return isinstance(v, TensorVal) and v.domain is not None and v.domain.binary


def _written_size(owner: TensorVal, size, line: int) -> TensorVal:
    """A named size written in (`labels[void] = num_classes`): the values reach it when nothing else is
    known of their range, or when they were within that same size before."""
    if not isinstance(size, Sym) or (value(size) is not None and value(size) <= 0):
        return owner
    old = owner.domain
    if old is not None and old.size is not None and old.size != size:
        return owner
    origin = f"{_WRITTEN}{dim_text(size)} (written at line {line})"
    return owner.with_(domain=replace(old or Domain(), size=one_more(size), origin=origin, category=False))


_WRITTEN = INCLUDES


def masked(t):
    """masked_fill(m, 0) / where(m, x, 0) / clamp: the written value is taken out (as padding is)."""
    if isinstance(t, TensorVal) and t.domain is not None and t.domain.origin.startswith(_WRITTEN):
        return t.with_(domain=replace(t.domain, size=None, origin=""))
    return t


def padded_rows(interp, func: str, node: ast.Call, made):
    """`torch.tensor([ids + [pad] * (n - len(ids)) for ids in rows])` (or `[pad] * k + ids`): the pad is among
    the values (a negative one is padding, a sentinel; a size such as `vocab_size` reaches that size)."""
    if func not in ("tensor", "as_tensor", "LongTensor") or not node.args or not isinstance(node.args[0], ast.ListComp) \
            or not isinstance(made, TensorVal):
        return made
    row = node.args[0].elt
    if not (isinstance(row, ast.BinOp) and isinstance(row.op, ast.Add)):
        return made
    for part in (row.left, row.right):
        if isinstance(part, ast.BinOp) and isinstance(part.op, ast.Mult):
            repeated = part.left if isinstance(part.left, ast.List) else part.right
            if isinstance(repeated, ast.List) and len(repeated.elts) == 1:
                pad = interp.expr(repeated.elts[0])
                if isinstance(pad, DimVal) and isinstance(value(pad.dim), int) and value(pad.dim) < 0:
                    # a negative pad is padding among the ids (a lookup wraps it to the last row)
                    return made.with_(domain=replace(made.domain or Domain(), sentinel=value(pad.dim),
                                                     sentinel_line=node.lineno))
                if isinstance(pad, DimVal) and pad.dim is not None and (value(pad.dim) is None or value(pad.dim) > 0):
                    return written(made.with_(dtype=made.dtype or ("int64" if func == "LongTensor" else None)),
                                   pad.dim if value(pad.dim) is None or isinstance(pad.dim, Sym) else value(pad.dim),
                                   node.lineno)
    return made
