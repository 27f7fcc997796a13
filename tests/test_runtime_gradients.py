"""Runtime GL001 for a gradient handed to backward in another shape than its output's.

Each program runs in plain torch first (the oracle: torch raises 'Mismatch in shape'), then checked:
raise mode raises a RuntimeError that carries GL001, the shapes, the fix and torch's own message, at
the user's line; valid backward calls (no gradient, a gradient of the output's shape, autograd.grad,
several outputs) run as in torch.
"""
import warnings

import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintError, GatherLintWarning, checked  # noqa: E402
from .checked_runs import plain_and_checked  # noqa: E402
from .snippets import run_snippet  # noqa: E402

DQN_STEP = """
import torch
import torch.nn as nn

q_net = nn.Linear(4, 3)
obs, actions = torch.randn(8, 4), torch.randint(0, 3, (8,))
q_s_a = q_net(obs).gather(1, actions.unsqueeze(1)).squeeze(1)  # [8]
error = (torch.randn(8) - q_s_a).clamp(-1, 1)
"""

BUGGY = {
    "tensor backward, unsqueezed error": DQN_STEP + "q_s_a.backward(-error.detach().unsqueeze(1))\n",
    "autograd.backward with lists": DQN_STEP + "torch.autograd.backward([q_s_a], [error.detach()[:, None]])\n",
    "autograd.grad with grad_outputs": DQN_STEP + """
grads = torch.autograd.grad(q_s_a, q_net.weight, grad_outputs=error.detach().view(8, 1))
""",
}

VALID = {
    "tensor backward, matching gradient": DQN_STEP + "q_s_a.backward(-error.detach())\n",
    "scalar loss": DQN_STEP + "(error ** 2).mean().backward()\n",
    "two outputs": DQN_STEP + "torch.autograd.backward([q_s_a, error], [torch.ones(8), torch.ones(8)])\n",
    "autograd.grad, matching": DQN_STEP + "grads = torch.autograd.grad(q_s_a.sum(), q_net.weight)\n",
}


@pytest.mark.parametrize("name", list(BUGGY))
def test_a_gradient_with_an_added_dim_is_gl001_with_torchs_error(name):
    with pytest.raises(RuntimeError, match="Mismatch in shape") as plain:
        run_snippet(BUGGY[name])
    with checked(), pytest.raises(GatherLintError, match="GL001") as caught:
        run_snippet(BUGGY[name])
    text = str(caught.value)
    assert isinstance(caught.value, RuntimeError)
    assert "[8, 1]" in text and "[8]" in text and ".squeeze(1)" in text
    assert str(plain.value).splitlines()[0] in text  # torch's own message follows the explanation


def test_warn_mode_warns_and_torch_still_raises():
    with warnings.catch_warnings(record=True) as found, checked(action="warn"):
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError, match="Mismatch in shape") as raised:
            run_snippet(BUGGY["tensor backward, unsqueezed error"])
    assert not isinstance(raised.value, GatherLintError)
    assert [w for w in found if issubclass(w.category, GatherLintWarning) and "GL001" in str(w.message)]


@pytest.mark.parametrize("name", list(VALID))
def test_valid_backward_calls_run_as_in_torch(name):
    plain, scope = plain_and_checked(VALID[name])
    assert torch.equal(scope["q_net"].weight.grad if scope["q_net"].weight.grad is not None else torch.zeros(1),
                       plain["q_net"].weight.grad if plain["q_net"].weight.grad is not None else torch.zeros(1))
