"""GL008 index dtype: the index is not an integer tensor of a dtype the op accepts.

gather/scatter/index_select/index_add_ accept int64 and int32 (since torch 2.8); take_along_dim
with a dim, index_copy_ and index_fill_ accept int64 only. A float index (from ``/``, ``.float()``,
``torch.randn``) raises ``gather(): Expected dtype int32/int64 for index`` when the call runs.

It also flags ``torch.tensor(kept)`` without a dtype where ``kept`` is a filtered list comprehension
(``[i for i, s in enumerate(spans) if ...]``) that the function never tests for emptiness: an empty
list gives a float32 tensor, so index_select, index_add_, index_copy_ and take_along_dim raise on
exactly the inputs where the filter keeps nothing. (gather and scatter check nothing for an empty
index, so they are not flagged.)

Embedding lookups (``nn.Embedding``, ``F.embedding``) take int64 or int32 ids too: a comparison mask
used as segment ids (``emb(tokens >= offset)``) raises ``Expected tensor for argument #1 'indices' to
have one of the following scalar types: Long, Int; but got CPUBoolType instead``.

A parameter annotated as floats (``faces: Float[Tensor, "num_faces 3"]``) that the function uses as an
index, with nothing in the code making it float, is no evidence of a raise: the code's own use says the
tensor holds integers, so the annotation is the likelier mistake. That is reported as a warning naming the
annotation and the use, once per parameter, not as a torch error; a float the code makes (``/``,
``.float()``, ``torch.randn``) stays an error.

Plain subscripts are checked too (``x[key]``, ``x[key] = v``, ``x[rows, key] += v``): a float key
raises ``IndexError: tensors used as indices must be long, int, byte or bool tensors``. The key is
taken as float when its dtype is known to be floating, or when it is made by an expression whose
result is floating whatever its operands are (``/``, ``* 0.5``, ``.float()``, ``.mean()``,
``torch.linspace``); in libraries the latter only for keys written in place, in scripts also for names
assigned so.

Class ids handed to ``F.one_hot`` (int64 only) and class-index targets of ``F.cross_entropy`` /
``F.nll_loss`` (int64, or uint8 for an input of at most 2 dims) are checked the same way: an int32 target raises "expected target dtype to
be Long or Byte, but got Int". A float target of the input's own shape is a probability target of
cross_entropy and is left alone.

The narrow integer dtypes read differently in a subscript: int8 and int16 index tensors (of one dim or
more) raise the same IndexError, and a uint8 tensor is taken as a boolean mask, not as positions. A 0-d
uint8 key (`class_weight[label]`) then gives all of `x` under a new dim of size 1, or an empty result for
label 0, with no error; a uint8 key whose size differs from the dims it covers raises "The shape of the
mask ... does not match". A uint8 key of the dims' own size is left alone: it may be a mask written in
the style of older torch, unless its values are positions (a permutation, top-k or argsort made them):
then it was meant as indices, and the mask silently keeps the entries where it is non-zero.

At run time, one int32 layout is also reported where torch itself gets it wrong: on CPU, torch 2.13's gather
along dim 0 with an int32 index expanded over every other dim (``x.gather(0, ids.unsqueeze(1).expand(-1, D))``
with int32 ``ids``) returns other rows than the index names, silently. The check compares the result with the
rows the index names, so it speaks only when torch's result is wrong; ``.long()`` avoids it.
"""
from typing import Optional

from ..contract import ERROR, WARNING, Site, Violation, is_empty, named
from ..ops import GATHER, SCATTER, TAKE_ALONG

EMPTY_SKIPS_DTYPE = (GATHER, SCATTER)
from ._example import Example

CODE = "GL008"
NAME = "index-dtype"
SEVERITY = ERROR
FIX = "safe"  # `//` where a true division made the float, else `.long()` on the index
FIX_NOTE = (
    "Where a true division `/` made the float, the fix makes it `//` at that line (integer indices from then "
    "on); where an explicit cast (`.float()`) or a float constructor made it, it appends `.long()` to the "
    "index at the call. No fix for a bool index (a mask), nor for a division that cannot become `//` (a float "
    "literal divisor): `.long()` at the call would leave the quotient's other uses silently wrong."
)
# the codemods that apply this rule's fix (named, not imported: linting never loads libcst)
FIX_CODEMODS = ("gather_lint.rules.gl008_fix.FloorDivision", "gather_lint.codemods.expression.AppendToExpression")

EXAMPLES = [
    Example(
        title="beam indices made with true division",
        bad="""
import torch
scores = torch.randn(3, 4)  # [B, N]
flat = torch.arange(12).view(3, 4)
idx = (flat % 4).float()
out = scores.gather(1, idx)
expected = torch.stack([scores[b, (flat[b] % 4)] for b in range(3)])
""",
        good="""
import torch
scores = torch.randn(3, 4)  # [B, N]
flat = torch.arange(12).view(3, 4)
idx = (flat % 4).long()
out = scores.gather(1, idx)
expected = torch.stack([scores[b, (flat[b] % 4)] for b in range(3)])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    dtype = site.index.dtype
    allowed = site.op.index_dtypes
    if site.op.family == TAKE_ALONG and not site.dim_given:
        allowed = frozenset({"int32", "int64"})  # dim=None flattens and calls gather
    if dtype is None:
        return _float_if_empty(site, allowed)
    if dtype in allowed:
        return None
    if is_empty(site.index.shape) and site.op.family in EMPTY_SKIPS_DTYPE:
        return None  # torch checks nothing, dtype included, for an empty gather/scatter index
    need = " or ".join(sorted(allowed, reverse=True))
    domain = site.index.domain
    made = f" (made by {domain.made_float})" if domain is not None and domain.made_float else ""
    return Violation(
        CODE, SEVERITY,
        f"index {named(site.index)} has dtype {dtype}{made} but {site.op.spelled}() needs {need}; torch raises "
        f"when the call runs; convert it with `.long()`"
        + (" (or make it with `//` instead of `/`)" if dtype.startswith(("float", "bfloat")) else ""),
        **_fix(domain, dtype),
    )


def _fix(domain, dtype: str) -> dict:
    """Where a true division made the float, `//` there (the index was meant as integers); else `.long()`.
    A bool index is a mask, not positions: `.long()` would read positions 0 and 1, so no fix."""
    if dtype == "bool":
        return {}
    if domain is not None and domain.made_float and domain.made_float_at is None and not domain.made_float.startswith("`."):
        # a division made it but cannot be fixed there: `.long()` at the call would turn torch's error into
        # silently wrong values wherever else the quotient is used (the other half of a beam index)
        return {}
    if domain is not None and domain.made_float_at is not None:
        return {"fix_cause": ("floor_division", domain.made_float_at)}
    return {"fix_suffix": ".long()"}


def _float_if_empty(site: Site, allowed) -> Optional[Violation]:
    """`torch.tensor(filtered_list)` without a dtype: float32 on the inputs that leave the list empty.
    gather and scatter check nothing for an empty index; the other ops check its dtype and raise."""
    domain = site.index.domain
    if domain is None or domain.float_if_empty is None or site.op.family in EMPTY_SKIPS_DTYPE:
        return None
    need = " or ".join(sorted(allowed, reverse=True))
    return Violation(
        CODE, SEVERITY,
        f"index `{site.index.text}` is made by torch.tensor() without a dtype: {domain.float_if_empty}, so "
        f"{site.op.spelled}() (which needs {need}) raises on every input where the filter keeps nothing; "
        f"pass `dtype=torch.long` to torch.tensor()",
    )


def check_subscript_key(subscript: str, key: str, dtype: str, domain, made: str = "") -> Violation:
    """`x[key]` (read, write or in-place) with a float key: advanced indexing takes integer or bool
    tensors only, so torch raises IndexError at the subscript. `made`: what made the key a float when
    its dtype is not known (a true division of values of any type)."""
    if domain is not None and domain.made_float:
        made = domain.made_float
    what = f"a {dtype} tensor" if dtype != "floating" else "a float"
    division = "division" in made
    return Violation(
        CODE, SEVERITY,
        f"`{subscript}` indexes with `{key}`, {what}{f' (made by {made})' if made else ''}; torch raises "
        f"IndexError (tensors used as indices must be long, int, byte or bool tensors); "
        + ("make it with `//` instead of `/`, or convert it with `.long()`" if division else "convert it with `.long()`"),
        **(_fix(domain, dtype) if dtype != "floating" else {}),
    )


def check_narrow_key(subscript: str, key: str, dtype: str, rank: int, mismatch: Optional[str] = None,
                     positions: Optional[str] = None, sizes_known: bool = True) -> Violation:
    """`x[key]` with an int8/int16 key of one dim or more (raises), or a uint8 key (a mask): of rank 0
    (silently all of x or nothing) or of a size that differs from the dims it covers (`mismatch`, raises)."""
    fix = "convert it with `.long()`"
    if dtype != "uint8":
        return Violation(CODE, SEVERITY, f"`{subscript}` indexes with `{key}`, a {dtype} tensor; torch raises IndexError "
                         f"(tensors used as indices must be long, int, byte or bool tensors); {fix}", fix_suffix=".long()")
    if mismatch is not None:
        return Violation(CODE, SEVERITY, f"`{subscript}` indexes with `{key}`, a uint8 tensor, which torch reads as a "
                         f"boolean mask, not as positions; {mismatch}, so torch raises IndexError (the shape of the mask "
                         f"does not match); {fix}", fix_suffix=".long()")
    if positions is not None:
        outcome = "and nothing raises" if sizes_known else "silently (torch raises only where its size differs from the dim's)"
        return Violation(CODE, SEVERITY, f"`{subscript}` indexes with `{key}`, a uint8 tensor holding {positions}, but "
                         f"torch reads a uint8 key as a boolean mask, not as positions: the result keeps the entries "
                         f"where `{key}` is non-zero, in their own order, {outcome}; {fix}", fix_suffix=".long()")
    return Violation(CODE, SEVERITY, f"`{subscript}` indexes with `{key}`, a 0-d uint8 tensor, which torch reads as a "
                     f"boolean mask, not as a position: the result is all of the tensor under a new dim of size 1 "
                     f"(or of size 0 where `{key}` is 0), not the entry at `{key}`, and nothing raises; {fix}",
                     fix_suffix=".long()")


def check_flags_as_positions(subscript: str, key: str, dtype: str, origin: str, inverted: bool = False) -> Violation:
    """`x[flags]` with flags 0/1 of x's leading shape, held as integers: torch reads them as positions. `inverted`:
    the key is `~flags`, whose values are -1 and -2 (positions from the end), not the flags' complement."""
    if inverted:
        read = (f"`{key}` of {dtype} 0/1 flags ({origin}) is -1 and -2, not their complement: torch reads them as "
                f"positions from the end, so only the last two entries are selected, silently")
        return Violation(CODE, SEVERITY, f"`{subscript}` indexes with {read}, and no mask is applied; convert the "
                         f"flags with `.bool()` before inverting them", fix_suffix=".bool()")
    return Violation(
        CODE, SEVERITY,
        f"`{subscript}` indexes with `{key}`, {origin}, one per entry of the dims it covers, but it is {dtype}: "
        f"torch reads integers as positions, so only entries 0 and 1 are selected (every flagged entry is "
        f"entry 1), silently, and no mask is applied; convert it with `.bool()`",
        fix_suffix=".bool()",
    )


def check_class_ids(what: str, ids: str, dtype: str, made: str = "", input_rank=None) -> Violation:
    """Class ids of a dtype the op refuses: F.one_hot takes int64 only, F.cross_entropy / F.nll_loss
    class-index targets int64, or uint8 for an input of at most 2 dims; torch raises at the call."""
    if what == "F.one_hot()":
        subject, needs, says = f"class ids `{ids}` are", "int64", "one_hot is only applicable to index tensor of type LongTensor."
    elif dtype == "uint8":
        subject, needs = f"target `{ids}` is", f"int64 class ids for an input of {input_rank} dims (uint8 only for 1 or 2)"
        says = "expected scalar type Long but found Byte"
    else:
        subject, needs = f"target `{ids}` is", "int64 (or uint8) class ids"
        says = f"expected target dtype to be Long or Byte, but got {_TORCH_NAMES.get(dtype, dtype)}"
    return Violation(CODE, SEVERITY, f"{subject} {dtype}{f' (made by {made})' if made else ''} but {what} takes {needs}; "
                     f"torch raises '{says}' when the call runs; convert with `.long()`", fix_suffix=".long()")


def check_empty_class_ids(ids: str, why: str) -> Violation:
    """F.one_hot of `torch.tensor(filtered list)` made without a dtype: float32 when the filter keeps nothing."""
    return Violation(CODE, SEVERITY, f"class ids `{ids}` are made by torch.tensor() without a dtype: {why}, so F.one_hot() "
                     f"(which takes int64 only) raises 'one_hot is only applicable to index tensor of type LongTensor.' "
                     f"on every input where the filter keeps nothing; pass `dtype=torch.long` to torch.tensor()")


_TORCH_NAMES = {"int32": "Int", "int16": "Short", "int8": "Char", "bool": "Bool", "float32": "Float", "float64": "Double",
                "float16": "Half", "bfloat16": "BFloat16"}


def annotation_contradicts_use(use: str, param: str, annotation: str, dtype: str, corrected: str) -> Violation:
    """`param: Float[...]` used as an index, and nothing in the code makes it float: the annotation and the use
    disagree, and the use (integer positions) is the likelier truth. A warning, since no raise is certain.
    `use`: how the code uses it, e.g. "`v[faces[:, 0]]` uses `faces[:, 0]` as an index"."""
    fix = f"correct the annotation (`{corrected}`) or, if the values really are {dtype}, convert them with `.long()`"
    return Violation(
        CODE, WARNING,
        f"`{param}` is annotated `{annotation}` ({dtype}) but {use}, which holds integer positions; nothing in "
        f"the code makes it {dtype}, so the annotation contradicts the use; {fix}",
        help=fix,
    )


def check_misread_int32_rows(row: int, read: Optional[int], meant: int) -> Violation:
    """A gather torch computed wrong: along dim 0 on CPU, an int32 index expanded over every other dim (the
    row-selection idiom `x.gather(0, ids.int().unsqueeze(1).expand(-1, D))`) is misread by torch 2.13, which
    returns other rows than the index names, silently. A defect of torch, checked by its effect at run time:
    an int64 or contiguous index reads right."""
    return Violation(
        CODE, SEVERITY,
        f"`x.gather(0, index)` returned wrong rows: the index is int32 and expanded over every other dim, which "
        f"torch 2.13 misreads on CPU (row {row} of the result holds "
        f"{f'input row {read}' if read is not None else 'other values'}, the index says row {meant}), "
        f"silently; cast the index with `.long()` (or make it contiguous) before gathering",
        help="cast the index with `.long()` (or make it contiguous) before gathering",
    )
