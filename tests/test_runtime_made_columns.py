"""Runtime GL006 for [N, 1] columns that no gather made: a width-1 layer's output (a critic's value) and a
2-D `keepdim=True` row total (a summed log-prob), meeting an [N] per-sample vector in arithmetic.

Each buggy program runs in plain torch first (the oracle: the result is [N, N], not the per-sample [N]),
then checked: one GL006 warning. Each correct form runs plain and checked to the same values, silently.
"""
import warnings

import pytest

torch = pytest.importorskip("torch")

from .checked_runs import plain_and_checked, with_warnings  # noqa: E402
from .snippets import run_snippet  # noqa: E402

MODEL = """
import torch
import torch.nn as nn
import torch.nn.functional as F

class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(3, 8)
        self.critic_head = nn.Linear(8, 1)
        self.policy_head = nn.Linear(8, 4)

    def forward(self, obs):
        h = torch.relu(self.trunk(obs))
        return self.policy_head(h), self.critic_head(h)

torch.manual_seed(0)
agent = Agent()
obs = torch.randn(6, 3)
targets = torch.randn(6)
scores, baseline = agent(obs)
"""

BUGGY = {
    "targets minus the value column": MODEL + "out = targets - baseline\n",
    "value column minus targets, detached": MODEL + "out = baseline.detach() - targets\n",
    "torch.sub function": MODEL + "out = torch.sub(targets, baseline.clone())\n",
    "method form": MODEL + "out = targets.mul(baseline)\n",
    "columns joined over steps": MODEL + """
steps = [agent(torch.randn(3, 3))[1] for _ in range(2)]
joined = torch.cat(steps)
out = torch.randn(6) * (torch.randn(6, 1) - joined)
""",
    "keepdim sum of per-dim log-probs": MODEL + """
def summed_logp(mu, x):
    return torch.distributions.Normal(mu, 1.0).log_prob(x).sum(dim=1, keepdim=True)
out = 0.5 * summed_logp(scores, torch.zeros(6, 4)) - targets
""",
    "keepdim mean as a function": MODEL + "out = targets * torch.mean(scores, 1, True)\n",
    "a single functional layer": """
import torch
import torch.nn.functional as F
torch.manual_seed(0)
w, x, y = torch.randn(1, 5), torch.randn(7, 5), torch.randn(7)
out = F.linear(x, w) + y
""",
}

CORRECT = {
    "squeezed value": MODEL + "out = targets - baseline.squeeze(-1)\n",
    "column targets": MODEL + "out = targets.unsqueeze(1) - baseline.detach()\n",
    "view(-1) in torch.sub": MODEL + "out = torch.sub(targets, baseline.view(-1))\n",
    "keepdim total against the row scores": MODEL + "out = scores - torch.logsumexp(scores, dim=1, keepdim=True)\n",
    "summed without keepdim": MODEL + "out = scores.sum(1) * targets\n",
    "row norm of a 3-D tensor (a norm's statistic)": """
import torch
torch.manual_seed(0)
h = torch.randn(2, 5, 4)
out = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)
""",
    "pairwise differences of one score column (a ranking loss)": MODEL + """
pair_gaps = baseline - baseline.view(-1)
out = torch.sigmoid(pair_gaps).mean()
""",
    "batch of one": """
import torch
import torch.nn as nn
torch.manual_seed(0)
head = nn.Linear(4, 1)
out = torch.randn(1) - head(torch.randn(1, 4))
""",
    "wide layer output against a vector of its width": """
import torch
import torch.nn as nn
torch.manual_seed(0)
layer = nn.Linear(4, 6)
out = layer(torch.randn(6, 4)) + torch.randn(6)
""",
}


@pytest.mark.parametrize("name", list(BUGGY))
def test_a_made_column_meeting_a_vector_is_gl006(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = run_snippet(BUGGY[name])
    n = plain["out"].shape[0]
    assert plain["out"].shape == (n, n) and n > 1  # the oracle: every row met every other row
    _, messages = with_warnings(BUGGY[name])
    assert len(messages) == 1 and "GL006" in messages[0], messages


@pytest.mark.parametrize("name", list(CORRECT))
def test_correct_forms_are_silent_and_unchanged(name):
    plain, checked = plain_and_checked(CORRECT[name])
    assert torch.equal(plain["out"], checked["out"])


def test_the_message_names_the_layer_not_a_gather():
    _, messages = with_warnings(BUGGY["targets minus the value column"])
    assert "width-1 layer output" in messages[0] and ".squeeze(-1)" in messages[0]
