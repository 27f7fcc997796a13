"""GL018 normalised along another dim: a softmax's result read along a different dim than it normalised.

``F.log_softmax(scores, dim=0).gather(1, target.unsqueeze(1))`` on ``[B, C]`` scores picks each row's
label from values normalised over the batch, not over the classes: torch runs it and the
"log-probabilities" of every row depend on the other rows (the loss is silently wrong). The same
happens with ``softmax``/``log_softmax`` over the time dim of ``[B, T, V]`` logits, and with an
implicit dim (``F.log_softmax(x)`` picks dim 0 for 3-d input). The index must hold class labels
(targets, labels, actions), or positions an argmax / topk chose along a dim of the gathered dim's size
(pseudo-labels), so that the gathered dim is the class dim; picking whole distributions
(a query row of attention probabilities) is left alone.

Ops that fix the distribution's dim are checked the same way: ``F.nll_loss`` / ``nn.NLLLoss``
(and ``F.cross_entropy``) read dim 1 as the classes, so ``F.nll_loss(F.log_softmax(scores, dim=0),
target)`` on ``[B, C]`` scores is silently wrong, and so is the per-row pick ``probs[torch.arange(B), labels]`` of
``softmax(scores, dim=0)``; ``torch.multinomial`` and ``Categorical(probs)`` take each row of a 2-d
tensor as one distribution. ``nn.Softmax(dim=...)`` / ``nn.LogSoftmax(dim=...)`` layers are followed
too (the finding is at the layer's construction). A ``logsumexp``, ``argmax``, ``max`` or ``sum`` (an expectation over the actions) over
another dim is reported when the softmax ran over a dim
named as the batch (``B``, ``bs``, ``batch``) and the read dim is not: a mixture's log-weights
normalised over the batch and then marginalised over the components. Softmaxes read along another
non-batch dim on purpose (an HMM's transitions, dual-softmax matching) and ``[B, B]`` contrastive
similarities normalised over either dim are left alone. A soft lookup is checked the same way: a
softmax (an ``F.gumbel_softmax`` left at its default ``dim=-1``, or a gumbel-softmax helper's, reported at
the helper's call with the dim to pass) whose result
mixes the rows of an ``nn.Embedding`` weight along another dim (``probs @ emb.weight``,
``torch.einsum("bnhw,nd->bdhw", probs, codebook.weight)``) while the normalised dim is kept.

Two softmaxes are wrong by their own dim, whatever reads them: one over a dim of size 1
(``F.softmax(self.score(h), dim=-1)`` with ``score = nn.Linear(d, 1)``, or a ``[B * T, 1]`` column of
scores) gives every weight exactly 1.0 (every log-weight 0.0), so an attention pooling becomes a plain
sum; one over a dim that flattens the batch with another (``scores.view(B * T, S)`` normalised over dim
0) spans the rows of every sample, so one sample's weights depend on the others'.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation
from ._example import Example

CODE = "GL018"
NAME = "normalised-other-dim"
SEVERITY = WARNING
FIX = None  # the softmax is elsewhere; its dim is the fix, shown in the message
RUNTIME = True  # softmax and log_softmax results carry their dim at run time (gather_lint/runtime/normalised_checks.py)

EXAMPLES = [
    Example(
        title="log-softmax over the batch before picking each row's label",
        bad="""
import torch
import torch.nn.functional as F
scores = torch.randn(4, 5)  # [B, C]
target = torch.tensor([1, 0, 4, 2])
out = F.log_softmax(scores, dim=0).gather(1, target.unsqueeze(1)).squeeze(1)
expected = torch.stack([F.log_softmax(scores[b], dim=0)[target[b]] for b in range(4)])
""",
        good="""
import torch
import torch.nn.functional as F
scores = torch.randn(4, 5)  # [B, C]
target = torch.tensor([1, 0, 4, 2])
out = F.log_softmax(scores, dim=1).gather(1, target.unsqueeze(1)).squeeze(1)
expected = torch.stack([F.log_softmax(scores[b], dim=0)[target[b]] for b in range(4)])
""",
    ),
    Example(
        title="nll_loss reads dim 1 as the classes",
        bad="""
import torch
import torch.nn.functional as F
scores = torch.randn(6, 3)  # [B, C]
target = torch.randint(0, 3, (6,))
out = F.nll_loss(F.log_softmax(scores, dim=0), target, reduction="none")
expected = torch.stack([-F.log_softmax(scores[b], dim=0)[target[b]] for b in range(6)])
""",
        good="""
import torch
import torch.nn.functional as F
scores = torch.randn(6, 3)  # [B, C]
target = torch.randint(0, 3, (6,))
out = F.nll_loss(F.log_softmax(scores, dim=1), target, reduction="none")
expected = torch.stack([-F.log_softmax(scores[b], dim=0)[target[b]] for b in range(6)])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # needs the input's history: gather_lint/static/normalised_axis.py calls check_normalised


def check_normalised(input_text: str, function: str, normalised: int, gathered: int, index_text: str,
                     implicit: bool) -> Violation:
    how = f"{function}() without a dim (torch picks dim {normalised})" if implicit else f"{function}(dim={normalised})"
    return Violation(
        CODE, SEVERITY,
        f"`{index_text}` picks labels along dim {gathered} of `{input_text}`, but {how} normalised it along dim "
        f"{normalised}: each picked value is a share of dim {normalised}, not of the classes, so the result is "
        f"silently wrong; take the {function} over dim {gathered}",
        help=f"take the {function} over dim {gathered}",
    )


def check_read_elsewhere(call_text: str, input_text: str, shape, function: str, normalised: int, batch: str,
                         implicit: bool, reader_text: str, line: int, read: int, how: str) -> Violation:
    """A softmax whose result an op reads along another dim (nll_loss's classes, multinomial's rows,
    a logsumexp or argmax over the distribution's dim); see gather_lint/static/normalised_consumers.py."""
    along = f"dim {normalised} (torch's choice when no dim is given)" if implicit else f"dim {normalised}"
    return Violation(
        CODE, SEVERITY,
        f"`{call_text}` normalises {f'`{input_text}`' if input_text else 'its input'} {shape} along {along}{batch}, "
        f"but `{reader_text}` at line "
        f"{line} {how}: each value is a share of dim {normalised}, not of dim {read}, so the result is silently "
        f"wrong; take the {function} over dim {read}",
        help=f"take the {function} over dim {read}",
    )


def check_helper_read_elsewhere(call_text: str, softmax_text: str, softmax_line: int, shape, function: str,
                                normalised: int, reader_text: str, line: int, read: int, how: str,
                                passes_dim: Optional[bool]) -> Violation:
    """A helper's softmax, run on this call's tensor, read along another dim by the caller (a soft
    lookup of an embedding table's rows); see gather_lint/static/table_mixtures.py."""
    fix = f"pass dim={read}" if passes_dim is False else f"have it normalise over dim {read}"
    return Violation(
        CODE, SEVERITY,
        f"`{call_text}` normalises its input {shape} along dim {normalised} (`{softmax_text}` at line "
        f"{softmax_line}), but `{reader_text}` at line {line} {how}: each weight is a share of dim "
        f"{normalised}, not of dim {read}, so the result is silently wrong; {fix}",
        help=f"{fix} (the {function} over dim {read})",
    )


def check_singleton(call_text: str, what: str, function: str, along: str, axis: int, rank: int) -> Violation:
    """A softmax over a dim of size 1; see gather_lint/static/degenerate_softmax.py."""
    value = "0.0" if function == "log_softmax" else "1.0"
    other = "the dim that holds the alternatives"
    return Violation(
        CODE, SEVERITY,
        f"`{call_text}` normalises {what} along {along}, which has size 1: every {function} value is exactly "
        f"{value}, so the weights compare nothing (a weighted sum becomes a plain sum) and torch runs it "
        f"silently; normalise over {other} (when they were flattened into another dim, as in a `[B * T, 1]` "
        f"column of scores, reshape to `[B, T]` first)",
        help=f"take the {function} over {other}, not over the size-1 dim {axis}",
    )


def check_flattened_batch(call_text: str, what: str, function: str, along: str, size, rank: int) -> Violation:
    """A softmax over a dim that flattens the batch with another dim; see degenerate_softmax.py."""
    last = rank - 1
    return Violation(
        CODE, SEVERITY,
        f"`{call_text}` normalises {what} along {along}, of size `{size}`: the batch flattened with another "
        f"dim, so each distribution spans the rows of every sample and one sample's weights depend on the "
        f"others' (torch runs it silently); take the {function} over dim {last}, within one row",
        help=f"take the {function} over dim {last}",
    )
