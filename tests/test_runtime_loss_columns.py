"""Runtime GL006 in element-wise losses: a column [N, 1] (a value head's output) against a vector [N].

mse_loss, l1_loss, smooth_l1_loss and huber_loss broadcast the two to [N, N] and average every
prediction against every target, with only torch's size UserWarning. Each program runs in plain torch
first (the oracle: the loss differs from the per-sample loss a loop computes), then checked: one GL006
warning for the column, silence for matching shapes, a batch of one, and the losses that raise instead.
"""
import warnings

import pytest

torch = pytest.importorskip("torch")

from .checked_runs import with_warnings  # noqa: E402
from .snippets import run_snippet  # noqa: E402

CRITIC = """
import torch
import torch.nn as nn
import torch.nn.functional as F

class Critic(nn.Module):
    def __init__(self, obs_dim):
        super().__init__()
        self.v = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, obs):
        return self.v(obs)

torch.manual_seed(0)
critic = Critic(3)
obs = torch.randn(5, 3)
returns = torch.randn(5)
values = critic(obs)
reference = torch.stack([(values[i, 0] - returns[i]) ** 2 for i in range(5)]).mean()
"""

BUGGY = {
    "functional mse, head output as input": CRITIC + "out = F.mse_loss(values, returns)\n",
    "loss module, column as target": CRITIC + """
out = nn.MSELoss()(returns, values)
""",
    "huber in a helper": CRITIC + """
def td_loss(pred, target):
    return F.huber_loss(pred, target, delta=100.0)
out = td_loss(values, returns)
""",
}

BUGGY["keepdim max makes a square target"] = """
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
q_net = nn.Linear(3, 4)
obs, next_obs = torch.randn(5, 3), torch.randn(5, 3)
actions, rewards = torch.randint(0, 4, (5,)), torch.randn(5)
values = q_net(obs).gather(-1, actions.unsqueeze(-1)).squeeze(-1)
best_next, _ = q_net(next_obs).max(dim=-1, keepdim=True)
targets = rewards + 0.9 * best_next
out = F.mse_loss(values, targets.detach())
reference = torch.stack([(values[i] - (rewards[i] + 0.9 * best_next[i, 0])) ** 2 for i in range(5)]).mean()
"""

CORRECT = {
    "squeezed head": CRITIC + "out = F.mse_loss(values.squeeze(-1), returns)\n",
    "column targets": CRITIC + "out = F.mse_loss(values, returns.unsqueeze(-1))\n",
    "flattened both": CRITIC + "out = nn.SmoothL1Loss()(values.view(-1), returns.view(-1)) * 0 + F.mse_loss(values.view(-1), returns)\n",
}


@pytest.mark.parametrize("name", list(BUGGY))
def test_a_column_against_a_vector_in_a_loss_is_gl006(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = run_snippet(BUGGY[name])
    assert not torch.allclose(plain["out"], plain["reference"])  # the oracle: not the per-sample loss
    _, messages = with_warnings(BUGGY[name])
    assert len(messages) == 1 and "GL006" in messages[0], messages
    assert ("[5, 1]" in messages[0] or "square" in messages[0]) and "[5, 5]" in messages[0] and ".squeeze(-1)" in messages[0]


@pytest.mark.parametrize("name", list(CORRECT))
def test_matching_shapes_are_silent(name):
    scope, messages = with_warnings(CORRECT[name])
    if name != "flattened both":
        assert torch.allclose(scope["out"], scope["reference"])
    assert messages == []


def test_a_batch_of_one_grows_nothing_and_is_silent():
    _, messages = with_warnings("""
import torch
import torch.nn.functional as F
out = F.mse_loss(torch.randn(1, 1), torch.randn(1))
""")
    assert messages == []


def test_binary_cross_entropy_raises_on_the_mismatch_itself_and_is_left_to_torch():
    program = """
import torch
import torch.nn.functional as F
out = F.binary_cross_entropy(torch.rand(4, 1), torch.rand(4))
"""
    with pytest.raises(ValueError, match="same size"):
        run_snippet(program)
    with pytest.raises(ValueError, match="same size"):
        with_warnings(program)
