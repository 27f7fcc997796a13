"""A gather's kept size-1 dim survives `unsqueeze`: `q.gather(1, option).unsqueeze(-1)` is [N, 1, 1] with the
gather's 1 still at dim 1, and against [N, 1] returns broadcasting makes [N, N, 1]: an option-critic loss
averaged over N * N pairs instead of N steps. Each claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

LOSS = '''
import torch

def q_loss(q, option, ret):
    """
    Args:
        q (Tensor): option values, shape (N, num_options).
        option (LongTensor): executed option, shape (N, 1).
        ret (Tensor): n-step returns, shape (N, 1).
    """
    diff = q.gather(1, option).unsqueeze(-1) - ret
    return diff

def run():
    torch.manual_seed(0)
    return q_loss(torch.randn(8, 4), torch.randint(0, 4, (8, 1)), torch.randn(8, 1))
'''


def test_an_unsqueezed_gather_against_a_column_is_an_outer_product():
    found = lint(LOSS)
    assert [(f.code, f.line) for f in found] == [("GL006", 11)]
    assert "[N, N, 1]" in found[0].message
    assert run(LOSS).shape == (8, 8, 1)


@pytest.mark.parametrize("old, new", [
    ("q.gather(1, option).unsqueeze(-1)", "q.gather(1, option).unsqueeze(2)"),
    ("q.gather(1, option).unsqueeze(-1)", "q.gather(1, option).unsqueeze(1)"),  # the new 1 before the kept one
    ("    diff = q.gather(1, option).unsqueeze(-1) - ret",
     "    picked = q.gather(1, option)\n    diff = picked.unsqueeze(-1) - ret"),
])
def test_other_spellings_keep_the_finding(old, new):
    code = LOSS.replace(old, new)
    assert code != LOSS
    assert [f.code for f in lint(code)] == ["GL006"]
    assert run(code).shape == (8, 8, 1)


def test_a_leading_new_dim_keeps_the_rows_aligned():
    # [1, N, 1] - [N, 1] is [1, N, 1]: no outer product, and nothing is reported
    code = LOSS.replace("q.gather(1, option).unsqueeze(-1)", "q.gather(1, option).unsqueeze(0)")
    assert lint(code) == []
    assert run(code).shape == (1, 8, 1)


def test_the_squeezed_gather_is_left_alone():
    fixed = LOSS.replace("q.gather(1, option).unsqueeze(-1)", "q.gather(1, option).squeeze(1).unsqueeze(-1)")
    assert lint(fixed) == []
    assert run(fixed).shape == (8, 1)
