"""A list or dict attribute that other code fills is not the empty one __init__ made: `torch.tensor(
self.rewards)` in a REINFORCE policy has one entry per step, not none (attribute_stores.py)."""
import textwrap

import pytest

from gather_lint.api import lint_text

from .conftest import codes

POLICY = """
import torch
import torch.nn as nn

class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.rewards = []
        self.log_probs = {{}}

    def act(self, probs):
        {fill}

    def finish(self, logp):
        '''Args:
            logp (Tensor of shape (T,)): log-probability of each step's action.
        '''
        returns = torch.tensor(self.rewards)
        return -(logp * returns).sum()
"""


@pytest.mark.parametrize("fill", ["self.rewards.append(1.0)", "self.rewards.extend([1.0, 0.5])", "pass"])
def test_filled_list_attribute_is_not_empty(fill):
    assert codes(POLICY.format(fill=fill)) == []


def test_no_size_zero_is_made_of_an_attribute_list():
    from gather_lint.static.analyzer import explain_shapes

    code = textwrap.dedent(POLICY.format(fill="self.rewards.append(1.0)"))
    facts = [value for _, _, rows in explain_shapes(code, "p.py") for _, name, value in rows if name == "returns"]
    assert facts and all(value.shape is None for value in facts)  # was [0]


def test_torch_sees_the_filled_list(torch):
    rewards = []
    for _ in range(3):
        rewards.append(1.0)
    logp = torch.randn(3)
    assert (logp * torch.tensor(rewards)).shape == (3,)
    with pytest.raises(RuntimeError):
        logp * torch.tensor([])  # what an empty list would have meant


def test_a_list_attribute_read_by_position_after_outside_appends():
    code = """
    import torch
    import torch.nn as nn

    class Buffer(nn.Module):
        def __init__(self):
            super().__init__()
            self.items = []

        def latest(self):
            return torch.stack(self.items)[-1]

    def train(buffer, steps: int, width: int):
        for _ in range(steps):
            buffer.items.append(torch.randn(width))
        return buffer.latest()
    """
    assert lint_text(textwrap.dedent(code), "b.py").findings == []
