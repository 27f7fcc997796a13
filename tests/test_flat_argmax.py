"""argmax/argmin without a dim pick one position of the whole flattened tensor: of a [B, A] tensor a value
in [0, B*A), which, used as a column, reads past the A columns (and for small values silently reads the same
column in every row). Plain subscripts are read in scripts (a program with a driver). Each claim is run in
torch."""
import textwrap

import pytest

from .conftest import lint

PROGRAM = '''
import torch

def greedy_value(probs, q):
    # probs: [8, 4]
    # q: [8, 4]
    actions = {PICK}
    return q[torch.arange(q.size(0)), actions]


if __name__ == "__main__":
    print(greedy_value(torch.randn(8, 4).softmax(-1), torch.randn(8, 4)))
'''


def _found(pick: str):
    return [(f.code, f.line) for f in lint(textwrap.dedent(PROGRAM.replace("{PICK}", pick)))]


@pytest.mark.parametrize("pick", ["torch.argmax(probs)", "probs.argmax()", "probs.argmin()"])
def test_a_pick_without_a_dim_is_a_flat_position(torch, pick):
    assert _found(pick) == [("GL011", 8)]
    probs = torch.zeros(8, 4)
    probs[5, 2] = 1.0
    actions = torch.argmax(probs)
    assert actions.shape == () and actions.item() == 22  # 5 * 4 + 2: a flat position, not a column
    with pytest.raises(IndexError, match="out of bounds"):
        torch.randn(8, 4)[torch.arange(8), actions]


@pytest.mark.parametrize("pick", ["probs.argmax(dim=-1)", "probs.argmax(1)", "probs[0].argmax()"])
def test_a_pick_along_a_dim_is_silent(pick):
    assert _found(pick) == []
