"""Runtime GL001 for a batch of one squeezed away: `out = net(x).squeeze()` then `out[:, k]` raises 'too many
indices' once a batch holds a single sample. Torch is the oracle (it raises); checked, the error says the
squeeze took the batch dim. Other squeezes and reads run as in torch, silently."""
import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintError, checked  # noqa: E402
from .checked_runs import plain_and_checked  # noqa: E402
from .snippets import run_snippet  # noqa: E402

HEADS = """
import torch
import torch.nn as nn

class TwoTargets(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(5, 2)

    def forward(self, x):
        return torch.sigmoid(self.body(x))

torch.manual_seed(0)
net = TwoTargets()
data = torch.randn(5, 5)
"""

BUGGY = {
    "method squeeze, last batch of one": HEADS + """
picked = []
for start in range(0, 5, 2):
    probs = net(data[start:start + 2]).squeeze()
    picked.append(probs[:, 1])
""",
    "function squeeze in a helper": HEADS + """
def predict(model, rows):
    return torch.squeeze(model(rows))
probs = predict(net, data[:1])
first = probs[..., 0, 0]
""",
}

VALID = {
    "squeeze of the last dim only": HEADS + """
picked = [net(data[s:s + 2]).unsqueeze(-1).squeeze(-1)[:, 1] for s in range(0, 5, 2)]
out = torch.cat(picked)
""",
    "bare squeeze of a full batch": HEADS + "out = net(data).squeeze()[:, 0]\n",
    "bare squeeze, then a read that fits": HEADS + "out = net(data[:1]).squeeze()[1:]\n",
}


@pytest.mark.parametrize("name", list(BUGGY))
def test_a_read_of_a_squeezed_batch_of_one_is_gl001_with_torchs_error(name):
    with pytest.raises(IndexError, match="too many indices") as plain:
        run_snippet(BUGGY[name])
    with checked(), pytest.raises(GatherLintError, match="GL001") as caught:
        run_snippet(BUGGY[name])
    assert isinstance(caught.value, IndexError) and "squeeze" in str(caught.value)
    assert str(plain.value).splitlines()[0] in str(caught.value)


def test_an_unrelated_too_many_indices_error_is_torchs_own():
    program = "import torch\nv = torch.randn(4)\nv[:, 0]\n"
    with checked(), pytest.raises(IndexError) as caught:
        run_snippet(program)
    assert not isinstance(caught.value, GatherLintError)


@pytest.mark.parametrize("name", list(VALID))
def test_valid_squeezes_run_as_in_torch(name):
    plain, scope = plain_and_checked(VALID[name])
    assert torch.equal(scope["out"], plain["out"])
