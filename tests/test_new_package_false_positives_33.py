"""False findings of the thirty-third and thirty-fourth sets of code never linted before (benchmarks/README.md),
each as a small program in the style of the code it came from: torch runs it as the code does, and the linter
stays silent. Beside each, the mistake the rule is for, still reported and shown wrong in torch."""
import pytest

from .conftest import codes
from .snippets import run_snippet

torch = pytest.importorskip("torch")

# fast_abs_rl's reorder of an LSTM's (h, c): the docstring's `(H, C) of tensor [layer, batch, hidden]` names the
# tuple's two members, each a 3-d tensor; it is no 2-d shape of the parameter, so `lstm_states[0]` is not 1-d
REORDER = """
import torch
from torch import nn

def reorder_lstm_states(lstm_states, order):
    \"\"\"
    lstm_states: (H, C) of tensor [layer, batch, hidden]
    order: list of batch positions
    \"\"\"
    order = torch.tensor(order, device=lstm_states[0].device)
    return (lstm_states[0].index_select(1, order),
            lstm_states[1].index_select(1, order))

lstm = nn.LSTM(16, 32, num_layers=1, bidirectional=True)
_, final_states = lstm(torch.randn(7, 3, 16))
h, c = reorder_lstm_states(final_states, [2, 0, 1])
assert h.shape == (2, 3, 32) and torch.equal(h[:, 0], final_states[0][:, 2])
"""

# the mistake GL002 is for: a documented 1-d tensor indexed along dim 1
ONE_DIM = """
import torch

def reorder(scores, order):
    \"\"\"
    scores: (C,) one score per class
    \"\"\"
    return scores.index_select(1, torch.tensor(order))

reorder(torch.randn(5), [2, 0, 1])
"""


def test_a_docstring_group_naming_a_tuples_members_is_no_shape():
    assert codes(REORDER) == []
    run_snippet(REORDER)


def test_a_documented_one_dim_tensor_indexed_along_dim_1_is_still_reported():
    assert codes(ONE_DIM) == ["GL002"]
    with pytest.raises(IndexError, match="Dimension out of range"):
        run_snippet(ONE_DIM)
