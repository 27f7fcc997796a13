"""A file's NamedTuple outputs carry their tensors: `out.logits`, `out[0]` and unpacking give the
tensor the constructor got (named_tuples.py), also when the class sits in a block naming no op."""
import pytest

from .conftest import codes

OUTPUT = """
import torch
from typing import NamedTuple, Optional


class Step(NamedTuple):
    logits: torch.Tensor
    value: torch.Tensor
    hidden: Optional[torch.Tensor] = None


def policy(obs_dim: int, n_actions: int, batch: int):
    obs = torch.randn(batch, obs_dim)
    return Step({args})


def evaluate(obs_dim: int, n_actions: int, batch: int):
    step = policy(obs_dim, n_actions, batch)
    actions = torch.randint(0, n_actions, (batch,))
    return {read}.gather(1, actions{tail})
"""


@pytest.mark.parametrize("args", [
    "logits=torch.randn(batch, n_actions), value=torch.randn(batch)",
    "torch.randn(batch, n_actions), torch.randn(batch)",
    "torch.randn(batch, n_actions), value=torch.randn(batch), hidden=obs",
])
@pytest.mark.parametrize("read", ["step.logits", "step[0]", "step[-3]"])
@pytest.mark.parametrize("tail, fires", [("", True), ("[:, None]", False)])
def test_named_tuple_fields_reach_the_gather(args, read, tail, fires):
    code = OUTPUT.format(args=args, read=read, tail=tail)
    assert (codes(code) == ["GL001"]) == fires, code


def test_unpacked_named_tuple():
    code = OUTPUT.format(args="torch.randn(batch, n_actions), torch.randn(batch)", read="step.value", tail="")
    code = code.replace("    return step.value", "    logits, value, _ = step\n    return logits")
    assert codes(code) == ["GL001"], code


def test_a_call_that_does_not_fit_the_fields_makes_nothing():
    code = OUTPUT.format(args="torch.randn(batch, n_actions), value=torch.randn(batch), logits=obs",
                         read="step.logits", tail="")
    assert codes(code) == []


def test_torch_on_the_named_tuple(torch):
    from typing import NamedTuple

    class Step(NamedTuple):
        logits: "torch.Tensor"
        value: "torch.Tensor"

    step = Step(torch.randn(4, 3), torch.randn(4))
    assert step[0] is step.logits
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        step.logits.gather(1, torch.randint(0, 3, (4,)))
