"""GL009 scatter writes a slice: the index is smaller than src, so only part of src is written.

scatter/scatter_add/scatter_reduce read ``src`` only over the index's shape. An index ``[N, 1]``
with src ``[N, D]`` adds ``src[:, 0]`` alone: columns 1..D-1 are silently dropped. A src larger
than the index on any dim is cropped in the forward pass and makes the backward pass fail
(``ScatterAddBackward0 returned an invalid gradient``).

The same holds of the tensor written: an index (and src) of size 1 on a dim beside ``dim`` where that
tensor is larger writes only its entry 0 there, and the rest keep their old values.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation, gather_axis, is_empty, named, size_expr
from ..dims import Shape, dim_text, kept_part, must_exceed, value, varies
from ..ops import SCATTER
from ._example import Example
from .gl004_index_from_wrong_dim import value_axis
from .gl005_unexpanded_index import may_equal, one_named_dim

CODE = "GL009"
NAME = "scatter-writes-slice"
SEVERITY = WARNING
FIX = "unsafe"
FIX_NOTE = (
    "The fix appends `.expand(...)` with src's sizes on the index's size-1 dims; none where the index is "
    "smaller than src on a dim of size more than 1, or where its length along `dim` equals src's size on a "
    "size-1 dim (as likely an unsqueeze at the wrong dim), or where the tensor written has size 1 on that dim too (the "
    "expanded index would not fit it). None either where index and src agree but the tensor written is larger "
    "beside `dim`: index and src must be built per row of it, which no suffix does."
)
# the codemods that apply this rule's fix (named, not imported: linting never loads libcst)
FIX_CODEMODS = ("gather_lint.codemods.expression.AppendToExpression",)

EXAMPLES = [
    Example(
        title="segment sum with a [N, 1] index",
        bad="""
import torch
x = torch.randn(6, 3)  # [N, D]
seg = torch.tensor([0, 0, 1, 2, 2, 2])
out = torch.zeros(3, 3).scatter_add(0, seg.view(-1, 1), x)
expected = torch.stack([x[seg == s].sum(0) for s in range(3)])
""",
        good="""
import torch
x = torch.randn(6, 3)  # [N, D]
seg = torch.tensor([0, 0, 1, 2, 2, 2])
out = torch.zeros(3, 3).scatter_add(0, seg.view(-1, 1).expand(-1, 3), x)
expected = torch.stack([x[seg == s].sum(0) for s in range(3)])
""",
    ),
    Example(
        title="image-token positions of a batch flattened into one row's index",
        bad="""
import torch
IMG = 7
ids = torch.tensor([[1, IMG, IMG, IMG, 5, 6], [1, 2, 3, IMG, IMG, IMG]])  # [B, L]
embeds = torch.zeros(2, 6, 16)  # [B, L, D]
image = torch.randn(2, 3, 16)  # [B, K, D]
positions = (ids == IMG).nonzero()[:, 1]
index = positions[None, :, None].expand(-1, -1, 16)
out = embeds.scatter(1, index, image.reshape(index.shape))
expected = embeds.clone()
expected[0, 1:4], expected[1, 3:6] = image[0], image[1]
""",
        good="""
import torch
IMG = 7
ids = torch.tensor([[1, IMG, IMG, IMG, 5, 6], [1, 2, 3, IMG, IMG, IMG]])  # [B, L]
embeds = torch.zeros(2, 6, 16)  # [B, L, D]
image = torch.randn(2, 3, 16)  # [B, K, D]
starts = torch.tensor([[1], [3]])  # [B, 1]: each row's first image token
positions = starts + torch.arange(3)  # [B, K]
index = positions[:, :, None].expand(-1, -1, 16)
out = embeds.scatter(1, index, image)
expected = embeds.clone()
expected[0, 1:4], expected[1, 3:6] = image[0], image[1]
""",
    ),
]


def _written_narrow(site: Site, ones) -> Optional[int]:
    """A dim among `ones` where the tensor written is known to have size 1 as well: the index expanded to src's
    size there would no longer fit it, and torch would refuse the call."""
    shape = site.input.shape
    if shape is None or shape.variadic or len(shape.dims) != len(site.payload.shape.dims):
        return None
    return next((k for k in ones if value(shape.dims[k]) == 1), None)


def check(site: Site) -> Optional[Violation]:
    src = site.payload
    if site.op.family != SCATTER or src is None or src.shape is None or src.shape.variadic:
        return None
    idx = site.index.shape
    axis = gather_axis(site)
    if idx is not None and not idx.variadic and not idx.dims and len(src.shape.dims) == 1:
        idx = Shape((1,))  # a 0-d index is one entry of a 1-d one: torch writes src[0] alone
    if idx is None or idx.variadic or is_empty(idx) or len(idx.dims) != len(src.shape.dims):
        return None
    cropped = [
        k for k, (i, s) in enumerate(zip(idx.dims, src.shape.dims))
        if must_exceed(s, i) or (value(i) == 1 and varies(s)) or kept_part(i, s)
    ]
    if not cropped:
        return _one_slice_written(site, idx, axis)
    if src.filled in ("ones", "full") and cropped == [axis]:
        # src holds one value throughout: the index entries along dim read it as a same-sized src would, and
        # a fill with no requires_grad has no backward; a dim beside dim still leaves output columns unwritten
        return None
    ones = [k for k in cropped if value(idx.dims[k]) == 1 and k != axis]
    if ones and axis is not None:
        args = ", ".join(size_expr(src, k) if k in ones else "-1" for k in range(len(idx.dims)))
        narrow = _written_narrow(site, ones)
        advice = f"expand the index with `.expand({args})`" + (
            f" and write into a tensor of src's size on dim {narrow} (the one written has size 1 there too)"
            if narrow is not None else (" or use index_add_" if len(idx.dims) == 2 else ""))
        return Violation(
            CODE, SEVERITY,
            f"index {named(site.index)} has size 1 on dim {ones[0]} where src {named(src)} has "
            f"{dim_text(src.shape.dims[ones[0]])}; only src's first slice on that dim is written, silently, "
            f"and backward fails; {advice}",
            # an index as long along dim as src on a size-1 dim may be unsqueezed at the wrong dim, and an expanded
            # index must still fit the tensor written (index <= self beside dim): no fix then
            fix_suffix=None if narrow is not None or any(may_equal(idx.dims[axis], src.shape.dims[k]) for k in ones)
            else f".expand({args})",
        )
    k = cropped[0]
    if kept_part(idx.dims[k], src.shape.dims[k]):
        return Violation(
            CODE, SEVERITY,
            f"index {named(site.index)} has {dim_text(idx.dims[k])} entries on dim {k}, the ones a mask keeps of "
            f"the {dim_text(src.shape.dims[k])} of src {named(src)}; scatter reads src's leading "
            f"{dim_text(idx.dims[k])} entries, not the kept ones, so each kept position gets another entry's "
            f"values, silently, wherever the mask drops one; select src's entries with the same mask",
        )
    if not site.index.shape.dims:
        return Violation(
            CODE, SEVERITY,
            f"index {named(site.index)} is 0-d, which scatter reads as one entry: of src {named(src)} only the "
            f"first value is written, silently, and the backward pass fails; give the index src's shape (a 0-d "
            f"index often comes from iterating rows of a tensor with one dim fewer than meant)",
        )
    return Violation(
        CODE, SEVERITY,
        f"src {named(src)} is larger than index {named(site.index)} on dim {k}; torch silently uses only "
        f"the {_LEADING_BLOCK} of src and the backward pass fails; make index and src the same shape",
    )


def _one_slice_written(site: Site, idx: Shape, axis: Optional[int]) -> Optional[Violation]:
    """Index and src agree, but both have size 1 on a dim beside `dim` where the tensor written is larger
    (`embeds [B, L, D].scatter(1, pos[None] expanded to [1, K, D], feats)`): scatter writes where the index
    reaches, so only entry 0 of that dim is written and the rest keep their old values (GL005's twin)."""
    written = site.input.shape
    if axis is None or written is None or written.variadic or len(written.dims) != len(idx.dims):
        return None
    own = value_axis(site)
    short = [k for k in range(len(idx.dims)) if k not in (axis, own) and value(idx.dims[k]) == 1
             and varies(written.dims[k]) and not one_named_dim(idx.dims[k], written.dims[k])]
    if not short:
        return None
    dims = ", ".join(f"dim {k} ({dim_text(written.dims[k])})" for k in short)
    return Violation(
        CODE, SEVERITY,
        f"index {named(site.index)} has size 1 on {dims} of {named(site.input)}, the tensor written: scatter "
        f"writes only where the index reaches, so only entry 0 of {dims} is written and the others keep their "
        f"values, silently; make the index and src with the written tensor's size there",
    )


_LEADING_BLOCK = "leading block"


def leading_block(violation: Violation) -> bool:
    """The violation of a src longer than its index (no size-1 dim, no mask): a crop a custom autograd
    Function's forward may make on purpose, its backward written to match."""
    return violation.code == CODE and f"the {_LEADING_BLOCK} of src" in violation.message
