"""`torch.distributions` objects as values: `log_prob` of a value kept as a column [N, 1] on a batch of N
returns [N, N] (GL006), in the styles policies are written in; flat values and enumerated supports stay silent."""
import textwrap

import pytest

from .conftest import codes, lint
from .snippets import expected_lines, run_program

MODULE_POLICY = """
import torch
import torch.nn as nn
from torch.distributions import Categorical


class Policy(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.head = nn.Linear(obs_dim, n_actions)

    def dist(self, obs):
        return Categorical(logits=self.head(obs))


def loss_of(policy, obs, actions, returns):
    # obs: [B, obs_dim]  actions: [B]  returns: [B]
    log_probs = policy.dist(obs).log_prob({value})
    return -(log_probs * returns).mean()


if __name__ == "__main__":
    policy = Policy(4, 3)
    obs, actions = torch.randn(5, 4), torch.randint(0, 3, (5,))
    loss_of(policy, obs, actions, torch.randn(5))
    RESULT = policy.dist(obs).log_prob({value}), actions
"""

JAXTYPING_FUNCTION = """
import torch
from jaxtyping import Float, Int
from torch import Tensor


def pg_loss(logits: Float[Tensor, "batch actions"], taken: Int[Tensor, "batch"], adv: Float[Tensor, "batch"]):
    dist = torch.distributions.Categorical(logits=logits)
    logp = dist.log_prob({value})
    return -(logp * adv).mean()


if __name__ == "__main__":
    logits, taken = torch.randn(5, 3), torch.randint(0, 3, (5,))
    dist = torch.distributions.Categorical(logits=logits)
    RESULT = dist.log_prob({value}), taken
"""

DOCSTRING_GAUSSIAN = '''
import torch
from torch.distributions import Normal


def gaussian_logp(mean, log_std, action):
    """Log-likelihood of one continuous action per state.

    Args:
        mean (torch.FloatTensor of shape (batch_size,)): the policy's mean.
        log_std (torch.FloatTensor of shape (batch_size,)): the policy's log std.
        action (torch.FloatTensor of shape (batch_size,)): the action taken.
    """
    policy = Normal(mean, log_std.exp())
    return policy.log_prob({value})


if __name__ == "__main__":
    mean, log_std, action = torch.randn(5), torch.zeros(5), torch.randn(5)
    RESULT = Normal(mean, log_std.exp()).log_prob({value}), action
'''

STYLES = {
    "module-method-returns-categorical": (MODULE_POLICY, "actions.unsqueeze(-1)", "actions"),
    "jaxtyping-function-categorical": (JAXTYPING_FUNCTION, "taken.view(-1, 1)", "taken"),
    "docstring-normal": (DOCSTRING_GAUSSIAN, "action[:, None]", "action"),
}


def _program(template: str, value: str) -> str:
    return textwrap.dedent(template).replace("{value}", value)


@pytest.mark.parametrize("style", sorted(STYLES))
def test_a_column_value_is_reported_and_torch_returns_n_by_n(style, torch):
    template, column, flat = STYLES[style]
    bad = _program(template, column)
    found = [f for f in lint(bad) if f.code == "GL006"]
    scored_lines = [n for n, text in enumerate(bad.splitlines(), 1) if f"log_prob({column})" in text]
    assert sorted(f.line for f in found) == scored_lines, lint(bad)  # in the function and in its driver
    assert all(f"`{flat}`" in f.message for f in found)  # the fix names the flat value
    scored, values = run_program(bad)
    assert scored.shape == (len(values), len(values))  # torch: every value under every row's distribution


@pytest.mark.parametrize("style", sorted(STYLES))
def test_the_flat_value_is_silent_and_torch_returns_one_per_row(style, torch):
    template, _, flat = STYLES[style]
    good = _program(template, flat)
    assert "GL006" not in codes(good)
    scored, values = run_program(good)
    assert scored.shape == values.shape


def test_the_support_enumerated_on_purpose_stays_silent():
    code = """
    import torch
    from torch.distributions import Categorical
    def table(logits):
        # logits: [B, A]
        dist = Categorical(logits=logits)
        every = torch.arange(logits.shape[-1]).unsqueeze(-1)
        return dist.log_prob(every)
    """
    assert codes(code) == []


def test_a_batch_of_one_and_unknown_batches_stay_silent():
    code = """
    import torch
    from torch.distributions import Categorical, Normal
    def f(logits, mu, sigma, a, b):
        # logits: [1, A]  a: [1]  b: [B]
        one = Categorical(logits=logits).log_prob(a.unsqueeze(-1))
        unknown = Normal(mu, sigma).log_prob(b.unsqueeze(-1))
        return one, unknown
    """
    assert codes(code) == []


def test_samples_carry_the_batch_shape_and_the_class_count():
    code = """
    import torch
    from torch.distributions import Categorical
    def act(logits, values):
        # logits: [B, A]  values: [B, A]
        actions = Categorical(logits=logits).sample()
        chosen = values.gather(1, actions)
        return chosen
    """
    # the sample is [B]: gathering with it on a 2-d table is the rank mismatch torch raises on
    assert codes(code) == ["GL001"]


def test_torch_raises_on_a_one_d_sample_as_a_two_d_gather_index(torch):
    actions = torch.distributions.Categorical(logits=torch.randn(4, 3)).sample()
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(4, 3).gather(1, actions)


GREEDY_ACTIONS = """
import torch
from torch.distributions import Categorical


def greedy(logits):
    # logits: [B, A]
    dist = Categorical(logits=logits)
    return dist.{table}.max(1, keepdim={keep})[1]


def picked(log_probs, actions):
    return log_probs[torch.arange(log_probs.shape[0]), actions]  # expect


if __name__ == "__main__":
    logits = torch.randn(6, 4)
    actions = greedy(logits)
    RESULT = picked(logits.log_softmax(-1), actions), actions
"""


@pytest.mark.parametrize("table", ["probs", "logits"])
def test_a_categoricals_table_has_the_batch_and_the_classes(table, torch):
    # `dist.probs` is [B, A]: its keepdim argmax is a [B, 1] column, which the row numbers broadcast against
    bad = GREEDY_ACTIONS.replace("{table}", table).replace("{keep}", "True")
    found = lint(bad)
    assert [(f.code, f.line) for f in found] == [("GL017", expected_lines(bad)[0])], found
    picks, actions = run_program(bad)
    assert tuple(actions.shape) == (6, 1) and tuple(picks.shape) == (6, 6)  # torch: every row at every pick
    good = GREEDY_ACTIONS.replace("{table}", table).replace("{keep}", "False")
    assert codes(good) == []
    picks, actions = run_program(good)
    assert tuple(picks.shape) == (6,)


def test_moments_of_a_normal_have_its_batch_shape():
    code = """
    import torch
    from torch.distributions import Normal
    def f(mu, sigma, table):
        # mu: [B, D]  sigma: [B, D]  table: [B, D]
        centre = Normal(mu, sigma).mean
        return table.gather(1, centre.long().unsqueeze(-1).unsqueeze(-1))
    """
    assert codes(code) == ["GL001"]  # the mean is [B, D]: the index has one dim too many
