"""`agent.q_net(obs)`, `model.tokens(ids)`: a layer an instance's __init__ built, called from outside the class.

A driver or a training loop often calls a model's sub-layer directly; the layer's shape (and an
embedding's table size) is known from the constructor arguments as it is inside the class's methods.
"""
import textwrap

import pytest

from .conftest import codes, lint

AGENT = """
import torch
import torch.nn as nn


class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions, vocab):
        super().__init__()
        self.q_net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.tokens = nn.Embedding(vocab, 8)


if __name__ == "__main__":
    agent = Agent(4, 3, 10)
    obs = torch.randn(6, 4)
    {use}
"""


def _run(program: str):
    exec(compile(program, "<program>", "exec"), {"__name__": "__main__"})


@pytest.mark.parametrize("use, code, torch_says", [
    ("q = agent.q_net(obs).gather(1, torch.randint(0, 3, (6,)))", "GL001", "same number of dimensions"),
    ("e = agent.tokens(torch.arange(12))", "GL011", "index out of range"),
])
def test_a_sub_layer_called_from_the_driver_has_its_shape(use, code, torch_says, torch):
    program = textwrap.dedent(AGENT).replace("{use}", use)
    assert codes(program) == [code]
    with pytest.raises((RuntimeError, IndexError), match=torch_says):
        _run(program)


@pytest.mark.parametrize("use", [
    "q = agent.q_net(obs).gather(1, torch.randint(0, 3, (6, 1)))",
    "e = agent.tokens(torch.randint(0, 10, (6,)))",
    "agent.q_net(obs).argmax(-1)",
])
def test_correct_calls_of_a_sub_layer_stay_silent(use, torch):
    program = textwrap.dedent(AGENT).replace("{use}", use)
    assert [f.code for f in lint(program)] == []
    _run(program)
