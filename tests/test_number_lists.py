"""Python numbers collected in a list, and a size torch's broadcasting fixes.

- `targets.append(running)` in a loop, with `running` a float the body recomputes from floats, makes a list of
  floats: `torch.tensor(targets)` is 1-d float32, its length unknown (`targets[::-1]` and `reversed()` keep that).
- An unknown size broadcast against a known size n > 1 is n: torch raises unless the unknown one is 1 or n.

Together they carry the n-step returns of an actor-critic worker into its loss, where a [T, 1] gathered
log-prob times the [T] TD errors is a [T, T] outer product. Each claim runs in torch.
"""
import pytest

from gather_lint.dims import Shape, Sym, broadcast

from .conftest import lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

RETURNS = '''
import torch

def discounted(rewards, bootstrap, gamma):
    out = []
    running = bootstrap
    for r in reversed(rewards):
        running = r + gamma * running
        out.append(running)
    return torch.tensor(out[::-1])

def actor_loss(logits, actions, returns, values):
    td = returns - values
    picked = logits.log_softmax(dim=1).gather(1, actions.view(-1, 1))
    return -(picked * td.detach()).mean(), picked, td

def run():
    torch.manual_seed(0)
    logits = torch.randn(16, 3)
    actions = torch.randint(0, 3, (16,))
    values = torch.randn(16)
    returns = discounted(torch.randn(16).tolist(), 0.0, 0.9)
    return actor_loss(logits, actions, returns, values)
'''


def test_returns_collected_as_floats_reach_the_column_broadcast():
    found = lint(RETURNS)
    assert [(f.code, f.line) for f in found] == [("GL006", 14)]
    assert "[16, 16]" in found[0].message
    loss, picked, td = run(RETURNS)
    assert picked.shape == (16, 1) and td.shape == (16,)
    assert (picked * td).shape == (16, 16)  # the outer product the finding names


@pytest.mark.parametrize("old, new", [
    ("for r in reversed(rewards):", "for r in rewards[::-1]:"),  # another way to walk backwards
    ("    return torch.tensor(out[::-1])", "    out.reverse()\n    return torch.tensor(out)"),
    ("returns = discounted(torch.randn(16).tolist(), 0.0, 0.9)",
     "gamma = 0.9\n    returns = discounted(torch.randn(16).tolist(), 0.0, gamma)"),
])
def test_the_same_program_written_otherwise_keeps_the_finding(old, new):
    code = RETURNS.replace(old, new)
    assert code != RETURNS
    assert [f.code for f in lint(code)] == ["GL006"]
    run(code)


def test_squeezed_pick_is_left_alone():
    fixed = RETURNS.replace("actions.view(-1, 1))", "actions.view(-1, 1)).squeeze(1)")
    assert lint(fixed) == []
    loss, picked, td = run(fixed)
    assert (picked * td).shape == (16,)


def test_a_list_that_may_hold_lists_is_no_list_of_numbers():
    # `running` starts as a list: `gamma * running` would raise, and nothing is said about the list's items
    code = RETURNS.replace("returns = discounted(torch.randn(16).tolist(), 0.0, 0.9)",
                           "returns = discounted(torch.randn(16).tolist(), None, 0.9)")
    assert lint(code) == []


def test_an_unknown_size_broadcast_against_a_known_one():
    assert broadcast(Shape((None,)), Shape((16,))) == Shape((16,))
    assert broadcast(Shape((16,)), Shape((None, 1))) == Shape((None, 16))
    b = Sym("B")
    assert broadcast(Shape((None,)), Shape((b,))) == Shape((None,))  # B may be 1: nothing certain
    assert broadcast(Shape((None,)), Shape((1,))) == Shape((None,))
    assert (torch.ones(1) - torch.ones(16)).shape == (16,)
    assert (torch.ones(16) - torch.ones(16)).shape == (16,)
    with pytest.raises(RuntimeError):
        torch.ones(5) - torch.ones(16)
