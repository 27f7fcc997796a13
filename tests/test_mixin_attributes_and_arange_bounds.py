"""Two facts, each checked in torch:

* `torch.arange(0, n)` has n entries, n named or not, as `torch.arange(n)` does;
* a module class named in a class body's annotation (`_q_func: QFunction`, a mixin's declared attribute) makes
  `self._q_func` an instance of that class: calling it runs that class's forward, with its declared result.
"""
import pytest

from .conftest import lint
from .snippets import expected_lines, run_program

MIXIN = """
import json

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class QFunction(nn.Module):
    def __init__(self, obs_size: int, n_actions: int):
        super().__init__()
        self.fc = nn.Linear(obs_size, n_actions)

    def forward(self, x: Float[Tensor, "batch obs"]) -> Float[Tensor, "batch action"]:
        return self.fc(x)


class ValueMixin:
    _q_func: QFunction

    @torch.no_grad()
    def predict_value(self, x: Float[Tensor, "batch obs"], action: Int[Tensor, "batch 1"]):
        values = self._q_func(x)
        return values[ROWS, action]  # expect


class Agent(ValueMixin):
    def __init__(self, q_func):
        self._q_func = q_func


def evaluate(agent, batch):
    # the replay batch comes from storage: its shapes are the annotations' only
    x = torch.as_tensor(json.loads(batch["obs"]), dtype=torch.float32)
    actions = torch.as_tensor(json.loads(batch["actions"]))
    return agent.predict_value(x, actions), agent._q_func(x).detach(), actions


if __name__ == "__main__":
    torch.manual_seed(0)
    batch = {"obs": json.dumps(torch.randn(5, 3).tolist()), "actions": "[[0], [3], [1], [1], [2]]"}
    agent = globals()["Agent"](QFunction(3, 4))  # a class looked up by name, as a registry does
    RESULT = evaluate(agent, batch)
"""

ROWS = ["torch.arange(0, x.size(0))", "torch.arange(x.size(0))", "torch.arange(0, x.shape[0])"]


@pytest.mark.parametrize("rows", ROWS)
def test_a_mixins_declared_module_attribute_runs_its_forward(rows, torch):
    program = MIXIN.replace("ROWS", rows)
    line = expected_lines(program)[0]
    assert ("GL017", line) in [(f.code, f.line) for f in lint(program)]
    got, values, actions = run_program(program)
    assert got.shape == (5, 5)  # torch: every row read at every row's action
    fixed = program.replace("values[" + rows + ", action]", "values[" + rows + ", action.squeeze(1)]")
    assert [f for f in lint(fixed) if f.code == "GL017"] == []
    got, values, actions = run_program(fixed)
    assert torch.equal(got, values.gather(1, actions).squeeze(1))


def test_an_undeclared_attribute_stays_unknown():
    program = MIXIN.replace("ROWS", ROWS[0]).replace("    _q_func: QFunction\n", "")
    assert [f for f in lint(program) if f.code == "GL017"] == []  # nothing says what self._q_func returns
