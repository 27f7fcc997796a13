"""Asserts are shape facts: after `assert labels.shape == (B, T)` the code runs only where it held."""
import textwrap

import pytest

from .conftest import codes

RUNNABLE = """
import torch
def pick(values, rows):
    {facts}
    return values.gather(1, rows.unsqueeze(-1))

values = torch.randn(2, 5, 3)
rows = torch.randint(5, (2, 4))
out = pick(values, rows)
assert torch.equal(out.squeeze(-1), torch.stack([values[b, rows[b], 0] for b in range(2)]))  # column 0 only
"""


@pytest.mark.parametrize("facts", [
    "n, length, width = values.shape\n    assert rows.shape == (n, rows.size(1))",
    "n, length, width = values.shape\n    assert rows.dim() == 2 and rows.size(0) == n",
    "assert values.ndim == 3 and values.shape[-1] == 3\n    assert len(rows.shape) == 2",
    "assert values.dim() == 3, 'batched values'\n    assert values.size(2) == 3\n    assert rows.shape[0] == values.shape[0] and rows.dim() == 2",
])
def test_asserts_give_shapes(facts, torch):
    code = RUNNABLE.format(facts=facts)
    assert codes(code) == ["GL005"]
    exec(textwrap.dedent(code), {})


def test_the_shape_of_another_tensor():
    code = """
    import torch
    def f(scores, picks, other):
        # scores: [N, K]
        assert picks.shape == (scores.size(0),)
        picked = scores.gather(1, picks.unsqueeze(1))
        assert other.shape == picks.shape
        return picked * other
    """
    assert codes(code) == ["GL006"]


@pytest.mark.parametrize("test", [
    "rows.shape != (2, 4)",  # says nothing certain
    "rows.dim() > 1",
    "rows.shape == make_shape()",  # a call: not evaluated again
    "values.shape[0] == rows.shape[0]",  # no rank for values
])
def test_asserts_that_say_nothing_certain(test):
    code = f"""
    import torch
    def pick(values, rows):
        assert {test}
        return values.gather(1, rows.unsqueeze(-1))
    """
    assert codes(code) == []


def test_the_code_wins_over_an_assert():
    code = """
    import torch
    def f(picks):
        values = torch.randn(2, 5, 3)
        assert values.dim() == 2
        return values.gather(1, picks.unsqueeze(-1).expand(-1, -1, 3))
    """
    assert codes(code) == []
