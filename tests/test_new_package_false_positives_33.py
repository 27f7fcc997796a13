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


# nhsmm's forward pass: `transition_logits` is commented [B, T, K, K] where it is made, the shape without durations;
# the `else:` arm of `if max_duration is None:` serves the duration-dependent [B, T, K, D, K] tensor and indexes
# five dims. A comment written before an undecided `if` may describe the other arm's configuration.
DURATIONS = """
import torch

def make_transitions(batch, steps, states, max_duration):
    if max_duration is None:
        return torch.randn(batch, steps, states, states).log_softmax(-1)
    return torch.randn(batch, steps, states, max_duration, states).log_softmax(-1)

def forward_step(log_probs, max_duration):
    B, T, K = log_probs.shape
    transition_logits = make_transitions(B, T, K, max_duration)  # [B, T, K, K]
    first = log_probs.gather(1, torch.zeros(B, 1, K, dtype=torch.long))
    out = []
    for t in range(1, T):
        if max_duration is None:
            out.append(torch.logsumexp(transition_logits[:, t], dim=2))
        else:
            # duration-dependent transitions: [B, T, K, D, K]
            trans_t = transition_logits[:, t, :, :max_duration, :]
            out.append(torch.logsumexp(trans_t, dim=(1, 2)))
    return out, first

out, first = forward_step(torch.randn(2, 5, 3).log_softmax(-1), 4)
assert len(out) == 4 and out[0].shape == (2, 3)
"""

# the mistake GL001 is for: five indices on the commented four dims, on the one path there is
ALWAYS_FIVE = """
import torch

def forward_step(log_probs, max_duration):
    B, T, K = log_probs.shape
    transition_logits = torch.randn(B, T, K, K).log_softmax(-1)  # [B, T, K, K]
    first = log_probs.gather(1, torch.zeros(B, 1, K, dtype=torch.long))
    return transition_logits[:, 1, :, :max_duration, :], first

forward_step(torch.randn(2, 5, 3).log_softmax(-1), 4)
"""


def test_a_shape_comment_before_an_undecided_if_does_not_rank_the_other_arm():
    assert codes(DURATIONS) == []
    run_snippet(DURATIONS)


def test_too_many_indices_on_a_commented_rank_outside_any_branch_are_still_reported():
    assert codes(ALWAYS_FIVE) == ["GL001"]
    with pytest.raises(IndexError, match="too many indices"):
        run_snippet(ALWAYS_FIVE)


# equinet's calibrator (numpy): `# shape(models, data, tasks)` describes molecule-level targets; the atom/bond arm of
# `if data.is_atom_bond_targets:` reads per-task columns of another layout, `individual_vars[j][i][:, :]`
CALIBRATE = """
import numpy as np

def task_variances(individual_vars_list, atom_bond, num_models, num_tasks):
    individual_vars = np.array(individual_vars_list)  # shape(models, data, tasks)
    if atom_bond:
        individual_vars = [np.array([np.concatenate(individual_vars[j][i][:, :]) for j in range(num_models)])
                           for i in range(num_tasks)]
    else:
        individual_vars = [individual_vars[:, :, i] for i in range(num_tasks)]
    return individual_vars

per_atom = [[np.random.rand(57, 1) for task in range(2)] for model in range(3)]
made = task_variances(per_atom, True, 3, 2)
assert [m.shape for m in made] == [(3, 57), (3, 57)]
"""


def test_a_numpy_layout_comment_does_not_rank_the_other_layouts_arm():
    assert codes(CALIBRATE) == []
    run_snippet(CALIBRATE)
