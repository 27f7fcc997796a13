"""GL006 for value heads: a width-1 layer's output [B, 1] met by per-row targets [B] broadcasts to [B, B].

Each program runs in torch first (the oracle: the combined tensor is [B, B], so a mean over it is not
the per-sample loss), then through the linter: reported where the column meets the vector, with the
squeeze as the fix; silent when the head's column is squeezed, when the targets are columns too, and
when the layer is wider than 1.
"""
import textwrap

import pytest

from .conftest import lint
from .snippets import expected_lines, run_program

CRITIC_MSE = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class Critic(nn.Module):
    def __init__(self, obs_dim):
        super().__init__()
        self.v = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, obs):
        return self.v(obs)


def critic_loss(critic, obs, returns):
    # obs: [B, obs_dim]  returns: [B]
    values = critic(obs){use}
    return F.mse_loss(values, returns)  # expect


if __name__ == "__main__":
    critic = Critic(4)
    obs, returns = torch.randn(6, 4), torch.randn(6)
    critic_loss(critic, obs, returns)
    values = critic(obs){use}
    RESULT = (values - returns).shape, len(returns)  # expect
"""

ACTOR_CRITIC_ADVANTAGE = """
import torch
import torch.nn as nn
from jaxtyping import Float
from torch import Tensor


class ActorCritic(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int, hidden: int = 64):
        super().__init__()
        self.actor = nn.Linear(obs_dim, n_actions)
        self.value_head = nn.Linear(obs_dim, 1)

    def loss(self, obs: Float[Tensor, "batch obs"], returns: Float[Tensor, "batch"], logp: Float[Tensor, "batch"]):
        advantage = returns - self.value_head(obs){use}  # expect
        return -(logp * advantage.detach()).mean() + advantage.pow(2).mean()


if __name__ == "__main__":
    model = ActorCritic(4, 3)
    obs, returns, logp = torch.randn(5, 4), torch.randn(5), torch.randn(5)
    model.loss(obs, returns, logp)
    RESULT = (returns - model.value_head(obs){use}).shape, len(returns)  # expect
"""

REGRESSION_TOY = '''
import torch
import torch.nn as nn


def fit_step(model, optimizer, x, y):
    """One step of least squares.

    Args:
        x (torch.FloatTensor of shape (n_points, 1)): inputs.
        y (torch.FloatTensor of shape (n_points,)): targets.
    """
    y_pred = model(x){use}
    loss = ((y_pred - y) ** 2).mean()  # expect
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss


if __name__ == "__main__":
    model = nn.Linear(1, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.linspace(0, 1, 8).unsqueeze(1)
    y = 3 * x.squeeze(1) + 1
    fit_step(model, opt, x, y)
    RESULT = (model(x){use} - y).shape, len(y)  # expect
'''

STYLES = {"critic-module-mse-loss": CRITIC_MSE, "jaxtyping-advantage-in-a-method": ACTOR_CRITIC_ADVANTAGE,
          "docstring-regression-toy": REGRESSION_TOY}


def _program(template: str, use: str) -> str:
    return textwrap.dedent(template).replace("{use}", use)


@pytest.mark.parametrize("style", sorted(STYLES))
def test_a_head_column_against_per_row_targets_is_reported_and_torch_grows_it(style, torch):
    bad = _program(STYLES[style], "")
    found = [f for f in lint(bad) if f.code == "GL006"]
    assert [f.line for f in found] == expected_lines(bad), lint(bad)
    assert "width-1 layer" in found[0].message and ".squeeze(-1)" in (found[0].help or "")
    grown, n = run_program(bad)
    assert tuple(grown) == (n, n)  # torch: every row's value against every target


@pytest.mark.parametrize("style", sorted(STYLES))
def test_the_squeezed_head_is_silent_and_torch_keeps_one_per_row(style, torch):
    good = _program(STYLES[style], ".squeeze(-1)")
    assert [f.code for f in lint(good)] == []
    grown, n = run_program(good)
    assert tuple(grown) == (n,)


@pytest.mark.parametrize("code", [
    # the targets are columns too
    """
    import torch.nn as nn
    class Critic(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.v = nn.Linear(d, 1)
        def loss(self, obs, returns):
            # obs: [B, D]  returns: [B, 1]
            return ((self.v(obs) - returns) ** 2).mean()
    """,
    # a layer wider than 1
    """
    import torch.nn as nn
    class Head(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.out = nn.Linear(d, 2)
        def loss(self, h, target):
            # h: [B, D]  target: [B]
            return (self.out(h) - target.unsqueeze(-1)).pow(2).mean()
    """,
    # flattened before use
    """
    import torch.nn as nn
    import torch.nn.functional as F
    class Scorer(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.score = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())
        def loss(self, h, labels):
            # h: [B, D]  labels: [B]
            return F.binary_cross_entropy(self.score(h).view(-1), labels)
    """,
    # a width-1 attention score over positions, masked with a mask of its own rank
    """
    import torch
    import torch.nn as nn
    class Pool(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.att = nn.Linear(d, 1)
        def forward(self, h, mask):
            # h: [B, T, D]  mask: [B, T, 1]
            scores = self.att(h).masked_fill(mask == 0, -1e9)
            return (torch.softmax(scores, dim=1) * h).sum(1)
    """,
])
def test_correct_uses_of_a_width_one_head_stay_silent(code):
    assert [f.code for f in lint(textwrap.dedent(code))] == []


KEEPDIM_DQN = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))

    def forward(self, obs):
        return self.body(obs)


def td_targets(q_net, next_obs, rewards, dones, gamma=0.99):
    # next_obs: [B, obs_dim]  rewards: [B]  dones: [B]
    best_next = q_net(next_obs).max(dim=-1, keepdim=True)[0]{use}
    return rewards + gamma * (1 - dones) * best_next  # expect


if __name__ == "__main__":
    q_net = QNet(4, 3)
    next_obs, rewards, dones = torch.randn(6, 4), torch.randn(6), torch.zeros(6)
    td_targets(q_net, next_obs, rewards, dones)
    RESULT = td_targets(q_net, next_obs, rewards, dones).shape, 6
"""

KEEPDIM_COSINE = '''
import torch


def weighted_similarity(a, b, weight):
    """Cosine similarity of paired rows, weighted.

    Args:
        a (torch.FloatTensor of shape (n, d)): first rows.
        b (torch.FloatTensor of shape (n, d)): second rows.
        weight (torch.FloatTensor of shape (n,)): one weight per pair.
    """
    dots = (a * b).sum(-1, keepdim=True){use}
    return dots / (a.norm(dim=-1) * b.norm(dim=-1)) * weight  # expect


if __name__ == "__main__":
    a, b, w = torch.randn(5, 8), torch.randn(5, 8), torch.rand(5)
    RESULT = weighted_similarity(a, b, w).shape, 5
'''

KEEPDIM_JAXTYPING = """
import torch
from jaxtyping import Float
from torch import Tensor


def advantage(logits: Float[Tensor, "batch actions"], baseline: Float[Tensor, "batch"]):
    value = torch.logsumexp(logits, dim=1, keepdim=True){use}
    return value - baseline  # expect


if __name__ == "__main__":
    RESULT = advantage(torch.randn(7, 3), torch.randn(7)).shape, 7
"""

KEEPDIM_STYLES = {"dqn-module-max-target": KEEPDIM_DQN, "docstring-cosine-sum": KEEPDIM_COSINE,
                  "jaxtyping-logsumexp": KEEPDIM_JAXTYPING}


@pytest.mark.parametrize("style", sorted(KEEPDIM_STYLES))
def test_a_keepdim_column_against_per_row_values_is_reported_and_torch_grows_it(style, torch):
    bad = _program(KEEPDIM_STYLES[style], "")
    found = [f for f in lint(bad) if f.code == "GL006"]
    assert [f.line for f in found] == expected_lines(bad), lint(bad)
    assert "keepdim reduction" in found[0].message
    grown, n = run_program(bad)
    assert tuple(grown) == (n, n)


@pytest.mark.parametrize("style", sorted(KEEPDIM_STYLES))
def test_the_squeezed_keepdim_column_is_silent_and_torch_keeps_one_per_row(style, torch):
    good = _program(KEEPDIM_STYLES[style], ".squeeze(-1)")
    assert [f.code for f in lint(good)] == []
    grown, n = run_program(good)
    assert tuple(grown) == (n,)


def test_a_keepdim_column_broadcast_over_its_own_rows_stays_silent():
    code = """
    import torch
    def normalise(x, y):
        # x: [B, D]  y: [B, D]
        probs = x.exp() / x.exp().sum(-1, keepdim=True)
        shifted = y - y.max(dim=1, keepdim=True).values
        scale = x.norm(dim=-1, keepdim=True)
        return probs, shifted, x / scale, torch.argmax(x, dim=-1, keepdim=True) + 1
    """
    assert [f.code for f in lint(textwrap.dedent(code))] == []


def test_the_values_of_a_keepdim_max_unpacked_from_its_pair_keep_the_mark():
    code = """
    import torch
    def target(q_next, reward):
        # q_next: [B, A]  reward: [B]
        best, _ = q_next.max(-1, keepdim=True)
        return reward + best

    if __name__ == "__main__":
        print(target(torch.randn(4, 2), torch.randn(4)).shape)
    """
    assert [f.code for f in lint(textwrap.dedent(code))] == ["GL006"]
