"""GL034 positions of another order: positions picked in a tensor's own order index a sorted copy.

``values, perm = x.sort(dim)`` puts ``values`` in sorted order: entry i of a row is entry ``perm[i]`` of
``x``'s row. Positions picked along that dim of a tensor in its own order (a token drawn with
``torch.multinomial(probs, 1)``, an ``argmax``, ``topk`` indices) are positions of that order: vocabulary ids,
class ids, frame numbers. Gathering ``values`` (``gather``, ``take_along_dim``, ``index_select``) at them reads
the entry that sits at that rank of the sorted row, not the picked one: a sampled token's log-probability comes
from another token, silently. Read the unsorted tensor at those positions, or map them into the sorted order first
(``perm.argsort(dim).gather(dim, picks)``). Reported when the input is known to sit in a sort's order along the
gathered dim and the index's values were picked along that dim of a tensor that was never sorted, in a function
that sorts nothing (so no sorted copy there could have lost its mark).

The mirror mistake: a bool mask built in the sorted order (``cumsum(sorted_probs) > p``, a nucleus filter) that
fills or writes the tensor that was sorted (``logits.masked_fill(remove, v)``, ``logits[remove] = v``) marks
ranks, not vocabulary positions: the fill lands on the ids that happen to equal the removed ranks. Scatter the
mask back to the original order first. Reported when the mask's order is that of a sort of the very tensor it
fills.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation, mark_axis, named
from ._example import Example

CODE = "GL034"
NAME = "positions-of-another-order"
SEVERITY = WARNING
FIX = None  # which tensor the author meant to read is the author's call: the unsorted one, or mapped positions
RUNTIME = False  # the runtime sees a float tensor and integer positions, not the orders they are in
_ORDERED = ("gather", "take_along_dim", "index_select")

EXAMPLES = [
    Example(
        title="a sampled token's log-probability read from the sorted row",
        bad="""
import torch


def sample(scores):
    # scores: [B, V]
    return torch.multinomial(scores.softmax(-1), 1).squeeze(-1)


def sampled_logprobs(scores):
    # scores: [B, V]
    tokens = sample(scores)
    sorted_logprobs, sorted_ids = scores.log_softmax(-1).sort(dim=-1, descending=True)
    return sorted_logprobs.gather(-1, tokens.unsqueeze(-1)).squeeze(-1), tokens


scores = torch.randn(4, 10)
out, tokens = sampled_logprobs(scores)
expected = torch.stack([scores[i].log_softmax(-1)[tokens[i]] for i in range(4)])
""",
        good="""
import torch


def sample(scores):
    # scores: [B, V]
    return torch.multinomial(scores.softmax(-1), 1).squeeze(-1)


def sampled_logprobs(scores):
    # scores: [B, V]
    tokens = sample(scores)
    logprobs = scores.log_softmax(-1)
    return logprobs.gather(-1, tokens.unsqueeze(-1)).squeeze(-1), tokens


scores = torch.randn(4, 10)
out, tokens = sampled_logprobs(scores)
expected = torch.stack([scores[i].log_softmax(-1)[tokens[i]] for i in range(4)])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    order, domain = site.input.order, site.index.domain
    if site.op.name not in _ORDERED or order is None or domain is None or domain.original_positions is None:
        return None
    axis = mark_axis(site.input.shape, site.dim)
    if axis is None or axis != order[1] or domain.original_positions != axis:
        return None
    line = order[0][0]
    fix = "read the unsorted tensor at these positions, or map them into the sorted order first"
    return Violation(
        CODE, SEVERITY,
        f"index {named(site.index)} holds {domain.origin or 'positions picked along dim ' + str(axis)}, positions "
        f"in the original order of dim {axis}, but input {named(site.input)} is in the order of the sort at line "
        f"{line}: {site.op.spelled}() reads the entry at that rank of the sorted row, not the picked one, silently; "
        f"{fix}",
        help=fix,
    )


def check_mask(input_text: str, mask_text: str, mask_shape, line: int, axis: int) -> Violation:
    """A bool mask made in the order of the sort at `line` (`cumsum(sorted_probs) > p`) fills or writes the
    tensor that was sorted, which is in its original order."""
    fix = (f"scatter the mask back to the original order first (`{mask_text}.scatter({axis}, sorted_indices, "
           f"{mask_text})` with the sort's indices)")
    return Violation(
        CODE, SEVERITY,
        f"mask `{mask_text}` {mask_shape} is in the order of the sort at line {line} along dim {axis} (entry i is the i-th ranked), "
        f"but `{input_text}` is in its original order: the fill lands on whatever positions sit at those ranks' "
        f"indices, not on the ranked ones, silently; {fix}",
        help=fix,
    )
