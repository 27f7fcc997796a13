"""GL005 offers its expand fix only where the shapes say it is the intended one (found on unseen real bugs:
an expand there turned a wrong-dim pick into a gather of whole rows, and a length-1 index was taken for a
transposed one, so the right fix was held back)."""
import textwrap

import torch

from gather_lint import cli

from .conftest import lint

ONE_PER_ROW = """
import torch
from jaxtyping import Float, Int


def gold_scores(scores: Float[torch.Tensor, "batch cand"], gold: Int[torch.Tensor, "batch"]):
    return scores.gather(0, gold.unsqueeze(1))
"""

LAST_ACCEPTED = '''
import torch


def select_last(hidden_states, num_accepted):
    """Args:
        hidden_states: (batch, seq_len, hidden)
        num_accepted: (batch,)
    """
    index = (num_accepted - 1).view(-1, 1, 1)
    return hidden_states.gather(1, index)
'''


def _fixed(tmp_path, source: str) -> str:
    target = tmp_path / "snippet.py"
    target.write_text(textwrap.dedent(source))
    cli.main(["--fix", "--unsafe-fixes", "--isolated", "--quiet", str(target)])
    return target.read_text()


def test_one_index_per_row_is_reported_with_both_readings_and_no_fix(tmp_path):
    found = lint(ONE_PER_ROW)
    assert [f.code for f in found] == ["GL005"]
    assert "gather along dim 1 instead" in found[0].message and found[0].fix is None
    assert _fixed(tmp_path, ONE_PER_ROW) == textwrap.dedent(ONE_PER_ROW)
    scores, gold = torch.randn(4, 6), torch.tensor([5, 0, 3, 2])  # torch: the per-row pick is dim 1
    assert torch.equal(scores.gather(1, gold.unsqueeze(1)).squeeze(1), scores[torch.arange(4), gold])
    assert scores.gather(0, torch.tensor([0, 1, 2, 3]).unsqueeze(1)).shape == (4, 1)  # dim 0: column 0 only


def test_a_length_one_index_gets_the_expand_fix_and_reads_the_whole_feature(tmp_path):
    assert [f.code for f in lint(LAST_ACCEPTED)] == ["GL005"]
    fixed = _fixed(tmp_path, LAST_ACCEPTED)
    assert "hidden_states.gather(1, index.expand(-1, -1, hidden_states.size(2)))" in fixed
    scope = {}
    exec(fixed, scope)
    hidden, accepted = torch.randn(3, 5, 8), torch.tensor([2, 5, 1])
    expected = torch.stack([hidden[b, accepted[b] - 1] for b in range(3)]).unsqueeze(1)
    assert torch.equal(scope["select_last"](hidden, accepted), expected)
