"""GL018 through a layer: an nn.Softmax(dim=0) (a module attribute, the end of an nn.Sequential built by
a helper) whose 2-d output has each row's label gathered along dim 1. Torch runs it and every picked
probability is a share of the batch, not of the row's classes."""
import pytest

from .conftest import codes
from .snippets import run_snippet

POLICY = """
import torch
from torch import nn

class Policy(nn.Module):
    def __init__(self, n_obs, n_act):
        super().__init__()
        self.body = nn.Linear(n_obs, n_act)
        self.norm = nn.Softmax(dim=0)

    def forward(self, obs):
        return self.norm(self.body(obs))

def chosen_probs(policy, obs, acts):
    probs = policy(obs)
    return probs.gather(1, acts.unsqueeze(1)).squeeze(1)

if __name__ == "__main__":
    torch.manual_seed(0)
    policy = Policy(6, 3)
    obs = torch.randn(5, 6)
    acts = torch.randint(0, 3, (5,))
    got = chosen_probs(policy, obs, acts)
    rows = torch.stack([torch.softmax(policy.body(obs[i]), dim=0)[acts[i]] for i in range(5)])
    right = torch.allclose(got, rows)
"""

SEQUENTIAL = """
import torch
from torch import nn

def make_actor(n_in, n_out):
    return nn.Sequential(nn.Linear(n_in, 32), nn.Tanh(), nn.Linear(32, n_out), nn.Softmax(dim=0))

def pick(actor, batch_states, batch_actions):
    return actor(batch_states).gather(1, batch_actions.view(-1, 1))

if __name__ == "__main__":
    torch.manual_seed(0)
    actor = make_actor(4, 2)
    states = torch.randn(8, 4)
    actions = torch.randint(0, 2, (8,))
    got = pick(actor, states, actions).squeeze(1)
    per_row = torch.stack([actor[:-1](states[i]).softmax(0)[actions[i]] for i in range(8)])
    right = torch.allclose(got, per_row)
"""


@pytest.mark.parametrize("program", [POLICY, SEQUENTIAL], ids=["module-attribute", "sequential"])
def test_softmax_over_the_batch_then_a_label_pick_is_reported_and_wrong_in_torch(torch, program):
    assert not run_snippet(program)["right"]
    assert "GL018" in codes(program)


@pytest.mark.parametrize("program", [POLICY, SEQUENTIAL], ids=["module-attribute", "sequential"])
@pytest.mark.parametrize("dim", ["1", "-1"])
def test_softmax_over_the_classes_is_silent_and_right_in_torch(torch, program, dim):
    fixed = program.replace("Softmax(dim=0)", f"Softmax(dim={dim})")
    assert run_snippet(fixed)["right"]
    assert "GL018" not in codes(fixed)


def test_an_index_not_named_as_labels_is_left_alone(torch):
    # which dim holds the classes is unknown when the index is not named as labels
    program = POLICY.replace("acts", "cols")
    assert "GL018" not in codes(program)
