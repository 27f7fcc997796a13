"""GL018 at run time through softmax (not only log_softmax): an nn.Softmax(dim=0) policy head whose
[N, A] output has each row's action gathered along dim 1. Same rule code as the static half."""
from .checked_runs import plain_and_checked, with_warnings

POLICY = """
import torch
from torch import nn

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3), nn.Softmax(dim=DIM))
states = torch.randn(6, 4)
taken = torch.tensor([0, 2, 1, 1, 0, 2])
picked = policy(states).gather(1, taken.view(-1, 1)).squeeze(1)
per_row = torch.stack([policy[:-1](states[i]).softmax(0)[taken[i]] for i in range(6)])
right = torch.allclose(picked, per_row)
"""

ONE_ROW_OF_ATTENTION = """
import torch

torch.manual_seed(0)
scores = torch.randn(5, 7)
weights = torch.softmax(scores, dim=0)
column = weights.gather(1, torch.full((5, 1), 3))  # one key's weights over all queries: a whole distribution
right = torch.equal(column.squeeze(1), weights[:, 3])
"""


def test_softmax_over_the_batch_then_a_label_pick_warns_and_is_wrong():
    scope, messages = with_warnings(POLICY.replace("DIM", "0"))
    assert not scope["right"]
    assert any(m.startswith("GL018") and "softmax" in m for m in messages), messages


def test_softmax_over_the_classes_is_silent_and_unchanged():
    plain, checked = plain_and_checked(POLICY.replace("DIM", "1"))
    assert plain["right"] and checked["right"]


def test_the_same_pick_in_every_row_is_a_whole_distribution_and_silent():
    plain, checked = plain_and_checked(ONE_ROW_OF_ATTENTION)
    assert plain["right"] and checked["right"]
