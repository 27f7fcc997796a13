"""GL024 last position of padded batch: `h[:, -1]` of a right-padded batch reads padding for the shorter rows.

The state of a sequence's last token (for a sentence embedding, a reward, a steering vector, the next-token
logits) is often read as ``h[:, -1, :]``. On a batch padded on the right, that is the last *position*, which
is padding for every row shorter than the longest: those rows get the state of a pad token, and batching
changes the result, silently. Gather each row at its own last real position
(``h[torch.arange(B), mask.sum(1) - 1]``) or pad on the left. Reported when the right padding is visible
in the file (each sequence written at the front of its row, ``ids[i, :len(s)] = s``, in the scope or a
function of the file it calls; rows padded at their end and stacked, ``torch.stack([F.pad(s, (0, n)) for s in
seqs])``; ``pad_sequence(..., batch_first=True)``; a tokenizer's padded encoding,
``tokenizer(texts, padding=True, return_tensors="pt")``, in a file that sets ``padding_side = "right"`` and never
another side), and ``h`` is followed back to a
model called on those ids: a per-position output (``[:, -1, :]`` keeps batch, position and features, or
``.last_hidden_state`` / ``.hidden_states[k]`` of a library model), also one element of the list a model of the
file returns.

The same mistake for a pair of sequences: each row's position computed the same way for both
(``c = first_pad(chosen)``, ``r = first_pad(rejected)``) and both read at ``torch.maximum(c, r) - 1`` (by
``gather`` or ``x[torch.arange(B), idx]``) reads the shorter sequence of each pair past its own last token, at
padding; read each at its own position.

The mirror image: a batch padded on the *left* (each sequence written at the end of its row,
``ids[i, -len(s):] = s``; ``pad_sequence(..., padding_side="left")``; a tokenizer set to ``padding_side = "left"``)
read at ``mask.sum(1) - 1``, the last real position of a right-padded batch: every row's last token is at the
last position, so shorter rows are read at padding or an earlier token.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation
from ._example import Example

CODE = "GL024"
NAME = "last-position-of-padded-batch"
SEVERITY = WARNING
FIX = None
RUNTIME = False  # a plain subscript: no family call to see

EXAMPLES = [
    Example(
        title="last-token state of a right-padded batch",
        bad="""
import torch
embed = torch.nn.Embedding(10, 4)
seqs = [torch.tensor([3, 1, 4]), torch.tensor([2, 7])]
ids = torch.zeros(2, 3, dtype=torch.long)
for i, s in enumerate(seqs):
    ids[i, :len(s)] = s
hidden = embed(ids).cumsum(1)
out = hidden[:, -1, :]
expected = torch.stack([embed(s).sum(0) for s in seqs])
""",
        good="""
import torch
embed = torch.nn.Embedding(10, 4)
seqs = [torch.tensor([3, 1, 4]), torch.tensor([2, 7])]
ids = torch.zeros(2, 3, dtype=torch.long)
for i, s in enumerate(seqs):
    ids[i, :len(s)] = s
hidden = embed(ids).cumsum(1)
last = torch.tensor([len(s) - 1 for s in seqs])
out = hidden[torch.arange(2), last]
expected = torch.stack([embed(s).sum(0) for s in seqs])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # a subscript of a padded batch's output, found by gather_lint/static/padded_last_position.py


def last_position(read: str, ids: str) -> Violation:
    return Violation(
        CODE, SEVERITY,
        f"`{read}` reads the last position of every row, but `{ids}` is padded on the right: for each row shorter "
        f"than the longest that position is padding, so those rows get a pad token's state, silently; gather each "
        f"row at its own last real position (`[torch.arange(B), mask.sum(1) - 1]`) or pad on the left",
        help="gather each row at its own last real position (`[torch.arange(B), mask.sum(1) - 1]`) or pad on the left",
    )


def shared_end(read: str, sequence: str, index: str, made: str, other: str) -> Violation:
    return Violation(
        CODE, SEVERITY,
        f"`{read}` (made from `{sequence}`) is read at `{index}` = `{made}`, the larger of `{sequence}`'s and "
        f"`{other}`'s positions: in every row where `{sequence}` is the shorter one this reads past its own last "
        f"token (padding), silently; read each sequence at its own position",
        help="read each sequence at its own position",
    )


def left_padded_batch_count(read: str, line: int) -> Violation:
    """The same read, the left padding known from the batch the counts come from (made at `line`, -1: unknown)."""
    made = f"made at line {line}" if line > 0 else "made by pad_sequence(padding_side=\"left\")"
    return Violation(
        CODE, SEVERITY,
        f"`{read}` reads each row at its count of real tokens minus one, but the batch those counts come from "
        f"({made}) is padded on the left: padding comes before real tokens, so each row shorter than the longest "
        f"is read at padding or an earlier token, silently; read `[:, -1]` where nothing follows the tokens, or "
        f"each row's last real position (`mask.size(1) - 1 - mask.flip(1).argmax(1)`), or pad on the right",
        help="read `[:, -1]` where nothing follows the tokens, or each row's last real position, or pad on the right",
    )

