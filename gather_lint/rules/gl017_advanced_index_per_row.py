"""GL017 advanced index per row: ``x[:, idx]`` with one index per row picks every index for every row.

With ``log_probs`` of shape ``[B, C]`` and ``actions`` of shape ``[B]`` (one action per row),
``log_probs[:, actions]`` is advanced indexing on dim 1 alone: every row is read at every row's
action, giving ``[B, B]``, silently. What was meant is one entry per row:
``log_probs.gather(1, actions.unsqueeze(1)).squeeze(1)`` or ``log_probs[torch.arange(B), actions]``.
The ``[B, B]`` result then broadcasts against ``[B]`` rewards or is averaged by ``.mean()`` without
any error, and the loss averages every row with every other row's label.
The same holds on higher ranks (``x[:, :, idx]``, ``x[..., idx]``) when the index's leading dims are
the dims left of the indexed one. It is reported only when the index's leading sizes equal those
dims and its values are per-row picks: ids, labels, actions or targets, or positions made for the
indexed dim (``argmax``, ``topk``, ``multinomial``, ``randint``); or when the code treats the result as one
value per row (a ``# [B]`` comment on it, or combining it with a ``[B]`` tensor). A column selection shared by all
rows (``hidden[:, keep]``, ``feats[:, perm]``) is correct and stays silent.
``x.index_select(1, idx)`` with such an index is the same mistake and is reported too.

Fixing the row first, ``x[0][idx]`` or ``x[0, idx]`` with ``idx`` of shape ``[B]`` (one pick per row of ``x``
``[B, C]``), reads every pick from row 0, silently; it is reported on the same evidence. So is the write
``out[:, labels] = 1`` (a one-hot built by columns): every row gets every label of the batch.

The opposite mix-up, ``x[torch.arange(B), idx]`` with ``idx`` of shape ``[B, K]`` (several picks per row),
cannot broadcast ``[B]`` with ``[B, K]``: torch raises IndexError (shape mismatch: indexing tensors could
not be broadcast together) unless ``B == K``, when it silently pairs row ``k`` with column ``k``. It is
reported as an error when the sizes are known numbers that differ; the fix is ``torch.arange(B)[:, None]``.
That column with one pick per row, ``x[torch.arange(B)[:, None], idx]`` with ``idx`` of shape ``[B]``, broadcasts to
``[B, B]`` as ``x[:, idx]`` does, and is reported on the same evidence; the fix is ``x[torch.arange(B), idx]``.
"""
from typing import Optional, Tuple

from ..contract import WARNING, Domain, Site, Violation, gather_axis
from ..dims import Dim, Shape, dim_text, must_differ, must_equal, varies
from ..suggest import method_call
from ._example import Example

CODE = "GL017"
NAME = "advanced-index-per-row"
SEVERITY = WARNING
FIX = None
RUNTIME = False  # x[:, idx] is not a family call, and the runtime cannot tell a per-row index from a column list

EXAMPLES = [
    Example(
        title="log-prob of the action taken in each row",
        bad="""
import torch
log_probs = torch.randn(6, 4).log_softmax(-1)  # [B, A]
actions = torch.randint(4, (6,))
rewards = torch.randn(6)
out = log_probs[:, actions] * rewards
expected = torch.stack([log_probs[i, actions[i]] * rewards[i] for i in range(6)])
""",
        good="""
import torch
log_probs = torch.randn(6, 4).log_softmax(-1)  # [B, A]
actions = torch.randint(4, (6,))
rewards = torch.randn(6)
out = log_probs.gather(1, actions.unsqueeze(1)).squeeze(1) * rewards
expected = torch.stack([log_probs[i, actions[i]] * rewards[i] for i in range(6)])
""",
    ),
    Example(
        title="per-token scores picked with an ellipsis",
        bad="""
import torch
scores = torch.randn(2, 5, 7)  # [B, L, V]
token_ids = torch.randint(7, (2, 5))  # [B, L]
out = scores[..., token_ids]
expected = torch.stack([torch.stack([scores[b, t, token_ids[b, t]] for t in range(5)]) for b in range(2)])
""",
        good="""
import torch
scores = torch.randn(2, 5, 7)  # [B, L, V]
token_ids = torch.randint(7, (2, 5))  # [B, L]
out = torch.take_along_dim(scores, token_ids.unsqueeze(-1), dim=-1).squeeze(-1)
expected = torch.stack([torch.stack([scores[b, t, token_ids[b, t]] for t in range(5)]) for b in range(2)])
""",
    ),
    Example(
        title="the target class's logit of each image, picked from the first row",
        bad="""
import torch
logits = torch.randn(4, 7)  # [B, C]
targets = torch.tensor([1, 1, 2, 1])  # [B]
out = logits[0][targets]
expected = torch.stack([logits[i, targets[i]] for i in range(4)])
""",
        good="""
import torch
logits = torch.randn(4, 7)  # [B, C]
targets = torch.tensor([1, 1, 2, 1])  # [B]
out = logits[torch.arange(4), targets]
expected = torch.stack([logits[i, targets[i]] for i in range(4)])
""",
    ),
    Example(
        title="index_select with the labels of each row",
        bad="""
import torch
probs = torch.randn(5, 3).softmax(-1)  # [N, C]
labels = torch.tensor([2, 0, 1, 1, 2])  # [N]
out = probs.index_select(1, labels).log().neg()
expected = torch.stack([-probs[i, labels[i]].log() for i in range(5)])
""",
        good="""
import torch
probs = torch.randn(5, 3).softmax(-1)  # [N, C]
labels = torch.tensor([2, 0, 1, 1, 2])  # [N]
out = probs[torch.arange(5), labels].log().neg()
expected = torch.stack([-probs[i, labels[i]].log() for i in range(5)])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    """`x.index_select(1, idx)` with one index per row is the same crossing as `x[:, idx]`."""
    if site.op.name != "index_select":
        return None
    axis, x, index = gather_axis(site), site.input.shape, site.index.shape
    if axis is None or axis < 1 or index is None or index.variadic or len(index.dims) != 1:
        return None
    if not leads_with_batch(index, x, axis):
        return None
    origin = per_row_origin(site.index.domain, x.dims[axis])
    if origin is None:
        return None
    return check_subscript(f"{site.input.text}.index_select({site.dim}, {site.index.text})", site.input.text, x,
                           axis, site.index.text, index, origin)


def leads_with_batch(index: Shape, x: Shape, axis: int) -> bool:
    """The index's leading dims are x's dims left of `axis`, each a real batch (named or sized alike,
    never 1): `hidden[:, keep]` with keep [K] is one column list shared by every row."""
    shared = min(len(index.dims), axis)
    return shared > 0 and all(must_equal(a, b) and varies(a) for a, b in zip(index.dims[:shared], x.dims[:shared]))


def per_row_origin(domain: Optional[Domain], indexed: Dim) -> Optional[str]:
    """How the index's values are known to be picks into the indexed dim (for messages), or None."""
    if domain is None or domain.sentinel is not None:
        return None
    if domain.size is not None and not domain.bound_only and must_differ(domain.size, indexed):
        return None  # values made for another dim (a written literal's largest value is no such dim)
    if domain.category:
        return domain.origin
    if domain.size is not None and must_equal(domain.size, indexed) and domain.origin:
        return domain.origin  # argmax/topk/multinomial/randint/`% n` over the indexed dim
    return None


def check_subscript(expr_text: str, x_text: str, x: Shape, axis: int, index_text: str, index: Shape,
                    origin: str) -> Violation:
    """`x[<axis full slices>, index]` where index's leading dims are x's dims left of `axis`."""
    dims = x.dims
    result = crossed_shape(x, axis, index)
    lead = Shape(tuple(dims[:axis]))
    return Violation(
        CODE, SEVERITY,
        f"`{expr_text}` indexes dim {axis} of `{x_text}` {x} with `{index_text}` {index}, which holds {origin}, "
        f"one per {_row_word(lead)}; advanced indexing reads every {_row_word(lead)} at every index, giving "
        f"{result}, silently; use {_fix(x_text, dims, axis, index_text, len(index.dims))} to pick one entry per "
        f"{_row_word(lead)}",
    )


def check_write(expr_text: str, x_text: str, x: Shape, index_text: str, index: Shape, origin: str) -> Violation:
    """`out[:, idx] = v` where idx holds one pick per row of out: every row is written at every pick."""
    rows = method_call(x_text, "size(0)")
    return Violation(
        CODE, SEVERITY,
        f"`{expr_text} = ...` writes dim 1 of `{x_text}` {x} at `{index_text}` {index}, which holds {origin}, one per "
        f"row; advanced indexing writes every row at every pick ({dim_text(index.dims[0])} entries per row instead of "
        f"one), silently; use `{x_text}[torch.arange({rows}), {index_text}] = ...` (or `.scatter_(1, "
        f"{method_call(index_text, 'unsqueeze(1)')}, ...)`) to write one entry per row",
    )


def check_one_row(expr_text: str, x_text: str, x: Shape, row: int, index_text: str, index: Shape,
                  origin: str) -> Violation:
    """`x[0][idx]` (or `x[0, idx]`) where idx holds one pick per row of x: every pick reads row `row`."""
    rows = method_call(x_text, "size(0)")
    return Violation(
        CODE, SEVERITY,
        f"`{expr_text}` reads row {row} of `{x_text}` {x} at `{index_text}` {index}, which holds {origin}, one per "
        f"row; every pick comes from row {row}, silently; use `{x_text}[torch.arange({rows}), {index_text}]` to pick "
        f"one entry per row",
    )


def check_kept_column(expr_text: str, x_text: str, x: Shape, rows_text: str, index_text: str, index: Shape,
                      written: bool) -> Violation:
    """`x[arange(B), idx]` with idx [B, 1]: the row numbers [B] and the column [B, 1] broadcast to [B, B]."""
    b = dim_text(x.dims[0])
    what = (f"`{expr_text} = ...` writes every row at every row's pick ({b} entries per row instead of one)"
            if written else f"`{expr_text}` reads every row at every row's pick, giving [{b}, {b}"
            f"{''.join(', ' + dim_text(d) for d in x.dims[2:])}] instead of one entry per row")
    return Violation(
        CODE, SEVERITY,
        f"`{index_text}` {index} keeps its picks as a column, and the row numbers `{rows_text}` [{b}] broadcast against "
        f"it to [{b}, {b}]: {what}, silently; drop the column (`{method_call(index_text, 'squeeze(1)')}`) to pair "
        f"each row with its own pick",
        help=f"drop the column (`{method_call(index_text, 'squeeze(1)')}`)",
    )


def crossed_shape(x: Shape, axis: int, index: Shape) -> Shape:
    """What `x[<axis full slices>, index]` gives; the index's leading dims are x's, named as x names them."""
    dims = x.dims
    shared = min(len(index.dims), axis)
    return Shape(tuple(dims[:axis]) + tuple(dims[:shared]) + tuple(index.dims[shared:]) + tuple(dims[axis + 1:]))


def _row_word(lead: Shape) -> str:
    return "row" if len(lead.dims) == 1 else f"{lead} position"


def _fix(x: str, dims: Tuple[Dim, ...], axis: int, index: str, index_rank: int) -> str:
    rank = len(dims)
    if rank == axis + 1 and index_rank == axis:
        unsqueezed = method_call(index, f"unsqueeze({axis})")
        picked = f"`{method_call(x, f'gather({axis}, {unsqueezed})')}.squeeze({axis})`"
    elif rank == axis + 1 and index_rank == axis + 1:
        picked = f"`{method_call(x, f'gather({axis}, {index})')}`"
    else:
        picked = f"torch.gather along dim {axis} (with the index expanded over the other dims)"
    if axis == 1 and index_rank == 1:
        rows = method_call(x, "size(0)")
        picked += f" or `{x}[torch.arange({rows}), {index}]`"
    return picked


def check_unbroadcastable(expr_text: str, first_text: str, first: Shape, second_text: str, second: Shape,
                          offset: int) -> Violation:
    """`x[rows, idx]` with index tensors whose shapes cannot broadcast (rows [B], idx [B, K]): torch raises.
    `offset`: the dim, counted from the end, where the sizes clash."""
    a, b = first.dims[-offset], second.dims[-offset]
    fix = ""
    if len(first.dims) == 1 and len(second.dims) == 2 and must_equal(first.dims[0], second.dims[0]):
        fix = f"; for one pick per row of `{second_text}`, give `{first_text}` a trailing dim: `{_column(first_text)}`"
    elif len(second.dims) == 1 and len(first.dims) == 2 and must_equal(second.dims[0], first.dims[0]):
        fix = f"; for one pick per row of `{first_text}`, give `{second_text}` a trailing dim: `{_column(second_text)}`"
    return Violation(
        CODE, "error",
        f"`{expr_text}`: the index tensors `{first_text}` {first} and `{second_text}` {second} cannot broadcast "
        f"together (dim -{offset}: {a} vs {b}); torch raises IndexError (shape mismatch: indexing tensors could "
        f"not be broadcast together){fix}",
    )


def _column(text: str) -> str:
    """`rows[:, None]`; a Python range has no dims to add: it becomes the torch.arange it indexes as."""
    return f"torch.a{text}[:, None]" if text.startswith("range(") else f"{text}[:, None]"
