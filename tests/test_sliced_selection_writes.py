"""GL003 at `x[rows, a:b] = v`: a slice beside an index tensor keeps its dim at the slice's length, so a
value shaped for another width cannot broadcast to the selection. Each claim runs in torch: the reported
write raises, the silent ones write what a loop writes."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

VOTES = """
import torch

def assign(points, votes, rows, k):
    targets = points.new_zeros(points.size(0), 3 * k)
    targets[rows, {cut}] = votes[rows]{widen}
    return targets

points = torch.rand(16, 3)
votes = torch.rand(16, 3)
rows = torch.tensor([0, 4, 7])
out = assign(points, votes, rows, 3)
"""


def _gl003_lines(code):
    return [v.line for v in lint(textwrap.dedent(code)) if v.code == "GL003"]


@pytest.mark.parametrize("cut, widen", [(":3 * k", ".expand(-1, k)"), (":3 * k", ""), ("3:", "")])
def test_a_value_narrower_than_the_cut_is_reported(cut, widen):
    code = VOTES.replace("{cut}", cut).replace("{widen}", widen)
    assert _gl003_lines(code) == [6]
    with pytest.raises(RuntimeError, match="shape mismatch"):
        run_snippet(code)


@pytest.mark.parametrize("cut, widen", [(":3 * k", ".repeat(1, k)"), (":3", ""), ("3:6", ""), (":", ".repeat(1, k)")])
def test_a_value_as_wide_as_the_cut_stays_silent(cut, widen):
    code = VOTES.replace("{cut}", cut).replace("{widen}", widen) + textwrap.dedent(f"""
    expected = torch.zeros(16, 9)
    for r in rows.tolist():
        row = votes[r].repeat({3 if widen else 1})
        expected[r, {cut.replace(" * k", " * 3")}] = row
    assert torch.equal(out, expected)
    """)
    assert _gl003_lines(code) == []
    run_snippet(code)
