"""GL006 missing squeeze: a gathered result keeps its singleton dim and is combined with a tensor without it.

``log_probs.gather(-1, ids.unsqueeze(-1))`` is ``[B, L, 1]``. Multiplied with a ``[B, L]`` mask (or added
to ``[B, L]`` advantages, compared with ``[B, L]`` reference log-probs), broadcasting aligns the
right-most dims: the result is ``[B, L, L]`` whenever ``B == L``, and always when the batch has one
row, silently; otherwise torch raises a size mismatch far from the gather. A ``[B, 1]`` with a ``[B]``
is always ``[B, B]``. A singleton in the middle (``[B, 1, T]`` with ``[B, T]``) always broadcasts
silently to ``[B, B, T]``. The same happens where no operator is written: ``torch.where``,
``masked_select``, ``torch.mul``/``torch.min(a, b)``, and elementwise losses (``F.mse_loss``,
``l1_loss``, ``smooth_l1_loss``, ``huber_loss`` only warn; ``kl_div``, ``poisson_nll_loss`` say nothing).
The mark survives unary ops and casts (``-torch.log(...)``, ``.exp()``, ``.float()``). A ``[N, 1]``
whose ``N`` is unknown (actions sampled from a distribution) with a 1-d tensor of more than one entry is
reported too: broadcasting never raises there, it always makes the ``[N, M]`` outer product. The finding is
reported on the gather, where the squeeze belongs. The reverse mistake, ``.squeeze()`` with no dim on
a gathered ``[1, L, 1]``, drops the batch dim too and gives ``[L]``.

A table read with a column of ids (``weights[target.view(-1, 1)]``) keeps the key's trailing 1 the same
way: a ``[C]`` table gives ``[N, 1]``, a ``[C, 1]`` column of class weights ``[N, 1, 1]``, which with
an ``[N]`` per-sample term is the ``[N, 1, N]`` outer product (reported at the lookup). In an
elementwise loss, a gathered ``[B, 1]`` against a target ``[B, A]`` that was never reduced over its
``A`` entries (an expectation over actions missing its ``.sum(-1, keepdim=True)``) is reported at the
loss: torch broadcasts and only warns about the sizes.

The other way round gives the same ``[B, B]``: a pick squeezed to ``[B]``
(``q.gather(1, a.unsqueeze(1)).squeeze(1)``), a row max without ``keepdim`` (``next_q.max(1)[0]``), a
loss asked for one value per sample (``reduction="none"``) or a distribution's ``log_prob`` of one
action per sample combined with a per-sample column ``[B, 1]`` (returns or targets kept as columns), or a ``[B]`` passed
to a helper whose parameter is annotated ``[B, 1]`` and combined there with its other ``[B, 1]``
parameters (reported where they meet). Rows picked by the same boolean mask count as the same rows:
``rewards[alive]`` ``[K, 1]`` with ``critic(obs[alive]).max(1)[0]`` ``[K]`` is ``[K, K]``. The
pairwise-distance idiom ``xx + yy - 2 * x @ y.T`` wants its ``[N, M]`` table and is not reported.

A distribution keeps its batch shape the same way: ``Categorical(logits=[B, A]).log_prob(actions)`` with
the actions stored as a column ``[B, 1]`` broadcasts the column against the batch ``[B]`` and returns
``[B, B]``, every action scored under every sample's distribution; the value it needs is ``[B]``.

A value head is the same column: ``nn.Linear(d, 1)`` (or an ``nn.Sequential`` ending in one) returns
``[B, 1]``, and ``returns - critic(obs)`` or ``F.mse_loss(critic(obs), returns)`` with ``returns [B]`` is
``[B, B]``; so is a ``keepdim=True`` reduction of ``[B, A]`` (``rewards + gamma * next_q.max(-1,
keepdim=True)[0]``), or the same column in two steps (``next_q.max(1)[0].unsqueeze(1)``, ``best[:, None]``).
Positions kept the same way (``logits.argmax(1, keepdim=True)``, ``logits.topk(1)[1]``) are a fine gather
index, but compared with the labels ``[B]`` (``pred.eq(labels)``) they give the ``[B, B]`` table, and an
accuracy counts every prediction against every label. Both are reported where the column meets the vector, since the squeeze belongs at the use.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation
from ..dims import Shape, dim_text, must_differ, must_equal, value
from ._example import Example

CODE = "GL006"
NAME = "missing-squeeze"
SEVERITY = WARNING
FIX = "unsafe"  # squeezing changes the shape later code sees
FIX_NOTE = (
    "The fix appends `.squeeze(dim)` to the gathered operand where it meets the other tensor, and "
    "gives a `.squeeze()` with no dim gather's dim (`.squeeze(-1)`), keeping the batch dim."
)
# the codemods that apply this rule's fix (named, not imported: linting never loads libcst)
FIX_CODEMODS = ("gather_lint.codemods.expression.AppendToExpression", "gather_lint.rules.gl006_fix.SqueezeDim")
RUNTIME = True  # checked on real values by the runtime mode too (see gather_lint/runtime/)

EXAMPLES = [
    Example(
        title="masked per-token log-probs with batch size 1",
        bad="""
import torch
log_probs = torch.randn(1, 5, 10).log_softmax(-1)  # [B, L, V]
ids = torch.randint(10, (1, 5))
mask = torch.tensor([[1.0, 1.0, 1.0, 0.0, 0.0]])  # [B, L]
token_logps = log_probs.gather(-1, ids.unsqueeze(-1))
out = token_logps * mask
expected = torch.stack([log_probs[0, t, ids[0, t]] * mask[0, t] for t in range(5)]).unsqueeze(0)
""",
        good="""
import torch
log_probs = torch.randn(1, 5, 10).log_softmax(-1)  # [B, L, V]
ids = torch.randint(10, (1, 5))
mask = torch.tensor([[1.0, 1.0, 1.0, 0.0, 0.0]])  # [B, L]
token_logps = log_probs.gather(-1, ids.unsqueeze(-1)).squeeze(-1)
out = token_logps * mask
expected = torch.stack([log_probs[0, t, ids[0, t]] * mask[0, t] for t in range(5)]).unsqueeze(0)
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # a dataflow rule: see check_broadcast


def check_column_key_broadcast(indexed: Shape, other: Shape, grown: Shape, op: str, indexed_text: str = "x[idx]",
                               other_text: str = "", line: Optional[int] = None) -> Violation:
    """`table[idx]` with a column of ids `idx` [N, 1] (made for gather/scatter) is [N, 1, ...]: the key's
    trailing 1 is kept; combined with an [N] tensor it broadcasts into `grown`, an outer product."""
    named = f" `{other_text}`" if other_text else ""
    where = f" at line {line}" if line is not None else ""
    return Violation(
        CODE, SEVERITY,
        f"`{indexed_text}` with a column index [N, 1] returned {indexed} (the index's trailing 1 is kept) and is "
        f"combined ({op}) with{named} {other}{where}; broadcasting aligns the right-most dims, so the result is "
        f"{grown}, every row with every other row, silently; index with a 1-d key (`idx.view(-1)`) or flatten the "
        f"result first",
    )


def check_distribution_value(distribution: str, batch: Shape, value_shape: Shape, grown: Shape,
                             value_text: str = "value", line: Optional[int] = None) -> Violation:
    """`dist.log_prob(v)` with v [*batch, 1] on a distribution of batch shape [*batch]: [*batch, N] back."""
    where = f" at line {line}" if line is not None else ""
    flat = next((value_text[:-len(end)] for end in _COLUMN_ENDS if value_text.endswith(end) and len(value_text) > len(end)),
                f"{value_text}.squeeze(-1)")
    return Violation(
        CODE, SEVERITY,
        f"`{distribution}.log_prob({value_text})`{where} scores a value {value_shape} on a distribution of batch "
        f"shape {batch}: the value's trailing 1 broadcasts against the batch, so the result is {grown}, every "
        f"value under every sample's distribution, silently; pass {batch} values (`{flat}`)",
    )


_COLUMN_ENDS = (".unsqueeze(-1)", ".unsqueeze(1)", "[:, None]", "[..., None]", ".view(-1, 1)", ".reshape(-1, 1)")


def check_square_loss_operand(square: Shape, vector: Shape, square_text: str, vector_text: str, loss: str) -> Violation:
    """An element-wise loss between a vector [N] and a square [N, N]: the square is the outer product a
    kept column [N, 1] made with an [N] tensor upstream (a keepdim max, a head's output)."""
    return Violation(
        CODE, SEVERITY,
        f"`{square_text}` {square} meets `{vector_text}` {vector} in {loss}: a square of the batch size is what a "
        f"column [N, 1] (a `keepdim=True` reduction, a width-1 layer's output, a gathered column) combined with an "
        f"[N] tensor gives upstream, so the loss compares every row's value with every other row's, silently apart "
        f"from torch's size warning; squeeze that column (`.squeeze(-1)`) where the {square_text} is computed",
    )


def check_loss_column(column: Shape, vector: Shape, grown: Shape, loss: str, column_text: str,
                      vector_text: str) -> Violation:
    """An element-wise loss between a column [N, 1] and a vector [N]: broadcast to [N, N]."""
    return Violation(
        CODE, SEVERITY,
        f"`{column_text}` {column} and `{vector_text}` {vector} meet in {loss}: broadcasting aligns the right-most "
        f"dims, so the loss is taken over {grown}, every input against every target, silently apart from torch's "
        f"size warning; give both the same shape (`{column_text}.squeeze(-1)`)",
    )


def check_squeeze_all(gathered: Shape, axis: Optional[int], text: str) -> Optional[Violation]:
    """`.squeeze()` with no dim on a gathered result that has another literal size-1 dim."""
    if gathered is None or gathered.variadic or axis is None:
        return None
    others = [k for k, d in enumerate(gathered.dims) if k != axis and d == 1]
    if not others:
        return None
    kept = [d for k, d in enumerate(gathered.dims) if d != 1]
    return Violation(
        CODE, SEVERITY,
        f"`{text}.squeeze()` on {gathered} removes every size-1 dim, dim {others[0]} too, giving "
        f"[{', '.join(dim_text(d) for d in kept)}]; squeeze only gather's dim with `.squeeze({axis - len(gathered.dims)})`",
        fix_argument=str(axis - len(gathered.dims)),
    )


def check_broadcast(gathered: Shape, axis: int, other: Shape, gathered_text: str, other_text: str,
                    op: str, line: Optional[int] = None, kept_by: str = "gather's",
                    written: Optional[Shape] = None) -> Optional[Violation]:
    """`gathered` has a singleton at `axis` left by gather (or by the [N, 1] key of a lookup: `kept_by`
    "the index's"); `other` is combined with it by `op` (at `line`, when the finding is reported on the
    gather itself)."""
    if gathered is None or other is None or gathered.variadic or other.variadic:
        return None
    dims = gathered.dims
    rank = len(dims)
    if rank >= 3 and len(other.dims) == 1 and axis == 1:
        return _trailing_ones(dims, other, gathered_text, other_text, op, line)
    if rank < 2 or len(other.dims) != rank - 1 or not 0 <= axis < rank:
        return None
    rest = dims[:axis] + dims[axis + 1:]
    squeeze = axis - rank if axis == rank - 1 else axis
    if not all(must_equal(a, b) for a, b in zip(rest, other.dims)):
        if rank == 2 and axis == 1 and rest[0] is None and _more_than_one(other.dims[0]):
            return _outer_product(dims, other, gathered_text, other_text, op, line, kept_by)
        return None
    shape = Shape(dims)
    effect = _last_axis_effect(rest) if axis == rank - 1 else _middle_axis_effect(dims, axis, other)
    if in_place(op) and written is not None:  # `x += y` / `x.mul_(y)`: x is written
        effect = _in_place_effect(written)
    where = f" at line {line}" if line is not None else ""
    return Violation(
        CODE, SEVERITY,
        f"`{gathered_text}` {shape} keeps {kept_by} singleton dim {axis} and is combined ({op}) with `{other_text}` "
        f"{other}{where}; {effect}; squeeze it first with `.squeeze({squeeze})`",
        fix_suffix=f".squeeze({squeeze})",
    )


def _trailing_ones(dims, other: Shape, gathered_text: str, other_text: str, op: str,
                   line: Optional[int]) -> Optional[Violation]:
    """[N, 1, 1] (a [C, 1] column looked up with [N, 1] ids) with [N]: right-aligned, N meets the last 1, so
    the result is [N, 1, N] whatever N is; certain when the two N are the same size or N is known > 1."""
    if any(d != 1 for d in dims[1:]) or not (must_equal(dims[0], other.dims[0]) or _more_than_one(other.dims[0])):
        return None
    grown = Shape(tuple(dims[:-1]) + (other.dims[0],))
    return check_column_key_broadcast(Shape(dims), other, grown, op, gathered_text, other_text, line)


def _last_axis_effect(rest) -> str:
    """[d0, .., dk, 1] with [d0, .., dk]: right-aligned, dim j meets dim j-1 of the other tensor."""
    grown = f"[{', '.join(dim_text(d) for d in rest)}, {dim_text(rest[-1])}]"
    pairs = [(rest[k], rest[k - 1]) for k in range(1, len(rest)) if not must_equal(rest[k], rest[k - 1])]
    if not pairs:
        return f"broadcasting aligns the right-most dims, so the result is always {grown}, silently"
    if any(must_differ(a, b) and value(a) != 1 and value(b) != 1 for a, b in pairs):
        return f"broadcasting aligns the right-most dims, so torch raises a size mismatch (it would be {grown})"
    when = " and ".join(f"{dim_text(b)} == {dim_text(a)}" for a, b in pairs)
    return (f"broadcasting aligns the right-most dims, so the result is {grown} whenever {when} "
            f"(or one of them is 1), silently, and torch raises a size mismatch otherwise")


def _middle_axis_effect(dims, axis: int, other: Shape) -> str:
    grown = Shape(tuple(dims[:axis]) + (other.dims[axis - 1],) + tuple(dims[axis + 1:])) if axis else None
    return f"broadcasting silently gives {grown}" if grown else "broadcasting silently adds a dim"


def _more_than_one(d) -> bool:
    """A size that is certainly not 1 (a named size may be 1: then nothing grows)."""
    return value(d) is not None and value(d) > 1


def _outer_product(dims, other: Shape, gathered_text: str, other_text: str, op: str, line: Optional[int],
                   kept_by: str) -> Violation:
    """[N, 1] with [M], N unknown: broadcasting never raises here, it pairs every row with every entry."""
    where = f" at line {line}" if line is not None else ""
    size = dim_text(other.dims[0])
    return Violation(
        CODE, SEVERITY,
        f"`{gathered_text}` {Shape(dims)} keeps {kept_by} singleton dim 1 and is combined ({op}) with the 1-d "
        f"`{other_text}` {other}{where}; broadcasting gives [{dim_text(dims[0])}, {size}], pairing every gathered row "
        f"with every one of the {size} entries (an outer product), silently; squeeze it first with `.squeeze(-1)`",
        fix_suffix=".squeeze(-1)",
    )


def check_loss_target(gathered: Shape, axis: int, target: Shape, loss: str, gathered_text: str = "gathered result",
                      target_text: str = "target") -> Violation:
    """A gathered [.., 1, ..] meets a loss target of the same rank that is larger on gather's dim."""
    grown = target.dims[axis]
    return Violation(
        CODE, SEVERITY,
        f"`{gathered_text}` {gathered} keeps gather's singleton dim {axis} and meets `{target_text}` {target} in {loss}: "
        f"broadcasting compares every gathered value with all {dim_text(grown)} target entries along dim {axis}, "
        f"so the loss is over {target}, silently apart from torch's size warning; the target should hold one "
        f"value per gathered entry ({gathered}): reduce it over dim {axis} where it is built",
    )


def check_passed_rank(param: str, declared: Shape, given: Shape, other_text: str, other: Shape, grown: Shape,
                      op: str) -> Violation:
    """A parameter annotated `declared` ([B, 1] or [B]) that the caller filled with `given` (the other one)
    meets `other`, shaped as annotated: broadcasting makes the [B, B] outer product."""
    if len(declared.dims) > len(given.dims):
        fix = f"pass `{param}` as the annotated column: `.unsqueeze(-1)` on the caller's {given} (or do not squeeze gather's dim)"
    else:
        fix = f"pass `{param}` as annotated: `.squeeze(-1)` on the caller's {given}"
    return Violation(
        CODE, SEVERITY,
        f"`{param}` is annotated {declared} but the caller passes {given}; combined ({op}) with `{other_text}` {other}, "
        f"broadcasting aligns the right-most dims and gives {grown}: every sample paired with every other sample "
        f"(an outer product), silently, and a mean over it mixes the batch; {fix}",
    )


def check_squeezed_pick(pick_text: str, pick: Shape, column_text: str, column: Shape, op: str,
                        gather_line: int, made: Optional[str] = None, written: Optional[Shape] = None) -> Violation:
    """A gathered pick squeezed to [B] (or a per-row max, `made` saying which) meets a per-sample column
    [B, 1]: the reverse of a kept singleton."""
    rows = dim_text(pick.dims[0])
    made = made or f"gathered at line {gather_line}, its singleton squeezed away"
    keep = "keep gather's singleton (no squeeze) or " if made.startswith("gathered") else (
        "keep its dim (`keepdim=True`) or " if "max" in made or "min" in made else "")
    effect = (f"broadcasting aligns the right-most dims and gives [{rows}, {rows}]: every sample paired with every "
              f"other sample (an outer product), without an error (a loss only warns about the sizes)")
    if in_place(op) and written is not None:
        effect = _in_place_effect(written)
    return Violation(
        CODE, SEVERITY,
        f"`{pick_text}` {pick} ({made}) is combined ({op}) with "
        f"the column `{column_text}` {column}; {effect}; {keep}"
        f"flatten `{column_text}` with `.squeeze(-1)`",
    )


def in_place(op: str) -> bool:
    """`+=`, `*=` or `.mul_()`: the result must keep the written tensor's shape."""
    return (op.endswith("=") and op not in ("==", "!=", "<=", ">=")) or op.endswith("_()")


def _in_place_effect(written: Shape) -> str:
    return (f"written in place, the [N, N] broadcast cannot fit {written}, so torch raises 'output with shape "
            f"{written} doesn't match the broadcast shape'")
