"""A comprehension over `zip(a, b)` makes as many items as the shortest of a and b, not one per zipped sequence. Each claim runs in torch: the reported gather raises, the silent program reads what
a loop reads."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

PAIRS = """
import torch

def pair_scores(scores, heads, tails):
    ids = torch.tensor([[h, t] for h, t in {pairs}])
    return scores.gather(1, ids)

scores = torch.randn({rows}, 6)
out = pair_scores(scores, [0, 4, 2], [5, 1, 3, 9])
"""


def _codes(code):
    return [(v.code, v.line) for v in lint(textwrap.dedent(code))]


def test_three_zipped_pairs_against_two_rows_are_reported():
    code = PAIRS.replace("{pairs}", "zip(heads, tails)").replace("{rows}", "2")
    assert ("GL003", 6) in _codes(code)
    with pytest.raises(RuntimeError, match="Size does not match"):
        run_snippet(code)


def test_three_zipped_pairs_against_three_rows_stay_silent():
    code = PAIRS.replace("{pairs}", "zip(heads, tails)").replace("{rows}", "3") + textwrap.dedent("""
    for r, (h, t) in enumerate(zip([0, 4, 2], [5, 1, 3, 9])):
        assert torch.equal(out[r], scores[r, [h, t]])
    """)
    assert _codes(code) == []
    run_snippet(code)

