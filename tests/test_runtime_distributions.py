"""Runtime GL006 for distributions: `log_prob` of a value kept as a column [N, 1] on a batch of N.

Each program runs in plain torch first (the oracle: the result is [N, N], not the per-sample log-probs a
loop computes), then under the runtime mode (raise mode, the default: GL006 is a warning and the program runs on): a GL006 warning at the `log_prob` line for the column,
silence for the flat value, for a column-shaped distribution, and for the support enumerated on purpose.
Layouts vary: a policy module returning its distribution, a plain function, Normal and Bernoulli.
"""
import pytest

torch = pytest.importorskip("torch")

from .checked_runs import with_warnings  # noqa: E402
from .snippets import run_snippet  # noqa: E402

POLICY = """
import torch
import torch.nn as nn

class Policy(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.head = nn.Linear(obs_dim, n_actions)

    def dist(self, obs):
        return torch.distributions.Categorical(logits=self.head(obs))

torch.manual_seed(0)
policy = Policy(4, 3)
obs = torch.randn(6, 4)
actions = torch.tensor([[0], [2], [1], [1], [0], [2]])
logits = policy.head(obs).log_softmax(-1)
reference = torch.stack([logits[i, actions[i, 0]] for i in range(6)])
"""

GAUSSIAN = """
import torch
from torch.distributions import Normal

def log_likelihood(mu, sigma, taken):
    return Normal(mu, sigma).log_prob(taken)

mu = torch.tensor([0.0, 1.0, 2.0, 3.0])
sigma = torch.ones(4)
taken = torch.tensor([0.5, 1.5, 2.5, 3.5]).unsqueeze(1)
reference = torch.stack([Normal(mu[i], sigma[i]).log_prob(taken[i, 0]) for i in range(4)])
"""

BUGGY = {
    "categorical from a module, action column": POLICY + "out = policy.dist(obs).log_prob(actions)\n",
    "normal in a helper, unsqueezed actions": GAUSSIAN + "out = log_likelihood(mu, sigma, taken)\n",
    "bernoulli, column of outcomes": """
import torch
probs = torch.tensor([0.2, 0.7, 0.9])
outcome = torch.tensor([[1.0], [0.0], [1.0]])
out = torch.distributions.Bernoulli(probs=probs).log_prob(outcome)
reference = torch.stack([torch.distributions.Bernoulli(probs=probs[i]).log_prob(outcome[i, 0]) for i in range(3)])
""",
}

CORRECT = {
    "categorical, flat actions": POLICY + "out = policy.dist(obs).log_prob(actions.squeeze(-1))\n",
    "normal with a column batch": GAUSSIAN + "out = Normal(mu[:, None], sigma[:, None]).log_prob(taken).squeeze(1)\n",
    "every action's log-prob, support enumerated": POLICY + """
n = 6
wide = torch.distributions.Categorical(logits=torch.randn(n, n))
table = wide.log_prob(torch.arange(n).unsqueeze(1))
out = table.T[torch.arange(n), torch.arange(n)]
reference = wide.logits[torch.arange(n), torch.arange(n)]
""",
}


@pytest.mark.parametrize("name", list(BUGGY))
def test_value_column_on_a_batch_is_gl006(name):
    plain = run_snippet(BUGGY[name])
    n = plain["reference"].shape[0]
    assert plain["out"].shape == (n, n)  # the oracle: every value under every sample's distribution
    _, messages = with_warnings(BUGGY[name])
    assert len(messages) == 1 and "GL006" in messages[0]
    assert f"[{n}, 1]" in messages[0] and f"[{n}, {n}]" in messages[0]


@pytest.mark.parametrize("name", list(CORRECT))
def test_per_sample_values_are_silent(name):
    scope, messages = with_warnings(CORRECT[name])
    assert torch.allclose(scope["out"], scope["reference"])
    assert messages == []

