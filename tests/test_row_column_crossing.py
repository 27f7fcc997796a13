"""GL017 for `x[arange(B)[:, None], idx]` with idx [B]: the column of row numbers broadcasts against idx to
[B, B], so every row is read at every row's pick, as `x[:, idx]` does. Reported on the evidence `x[:, idx]`
needs (picks made for the indexed dim, or a comment stating one pick per row); torch confirms the [B, B]
shape. The pairings that are right (arange(B) with idx [B], the column with idx [B, K] or [B, 1]) stay
silent and equal a one-by-one loop."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

PICKS = """
import torch

def last_logits(logits, ids, pad_id):
    # logits: [B, T, C], ids: [B, T]
    batch = logits.shape[0]
    rows = torch.arange(batch){ROWS}
    last = {LAST}
    picked = logits[rows, last]{COMMENT}
    return picked

logits = torch.randn(4, 7, 5)
ids = torch.tensor([[3, 1, 2, 0, 0, 0, 0], [4, 4, 0, 0, 0, 0, 0], [1, 2, 3, 4, 1, 0, 0], [2, 0, 0, 0, 0, 0, 0]])
picked = last_logits(logits, ids, 0)
{CHECK}
"""

ARGMAX = "logits.sum(-1).argmax(dim=1)"
COUNTS = "(ids != pad_id).sum(dim=-1) - 1"


def _code(rows, last, comment, check):
    return textwrap.dedent(PICKS.replace("{ROWS}", rows).replace("{LAST}", last).replace("{COMMENT}", comment)
                           .replace("{CHECK}", check))


@pytest.mark.parametrize("last,comment", [(ARGMAX, ""), (COUNTS, "  # [B, 1, C]"), (COUNTS, "  # [B, C]")])
def test_a_column_of_rows_with_one_pick_per_row_is_reported(last, comment):
    code = _code("[:, None]", last, comment, "assert picked.shape == (4, 4, 5)")
    assert (9, "GL017") in [(v.line, v.code) for v in lint(code)]
    run_snippet(code)


PAIRED = "assert torch.equal(picked.reshape(4, -1, 5)[:, -1], torch.stack([logits[b, int({IDX})] for b in range(4)]))"


@pytest.mark.parametrize("rows,last,comment", [
    ("", COUNTS, "  # [B, C]"),
    ("[:, None]", COUNTS + ").unsqueeze(1", "  # [B, 1, C]"),
    ("", ARGMAX, ""),
])
def test_rows_and_picks_that_pair_stay_silent(rows, last, comment):
    last_code = last if ").unsqueeze" not in last else "(" + last + ")"
    index = "last[b]" if ").unsqueeze" not in last else "last[b, 0]"
    check = PAIRED.replace("{IDX}", index)
    code = _code(rows, last_code, comment, "")
    code = code.replace("    return picked\n", f"    {check}\n    return picked\n")
    assert [v for v in lint(code) if v.code == "GL017"] == []
    run_snippet(code)


def test_a_column_of_rows_with_several_picks_per_row_stays_silent():
    code = _code("[:, None]", "torch.topk(logits.sum(-1), 2, dim=1).indices", "  # [B, 2, C]",
                 "assert picked.shape == (4, 2, 5)")
    assert [v for v in lint(code) if v.code == "GL017"] == []
    run_snippet(code)
