"""`x[s : s + k]`: a window of k entries wherever it starts (static/linear_terms.py reads the bounds as sums
of terms and keeps their difference). Claims run in torch."""
import pytest

from .conftest import codes
from .snippets import call_run as run

torch = pytest.importorskip("torch")

WINDOWS = """
import torch

def windows(corpus, starts, length):
    inputs = torch.stack([corpus[s : s + length] for s in starts])
    targets = torch.stack([corpus[TARGET] for s in starts])
    return inputs, targets

def run():
    corpus = torch.randint(0, 28, (500,))
    starts = torch.randint(0, 400, (8,))
    inputs, targets = windows(corpus, starts, 64)
    logits = torch.randn(8, 64, 28)
    return logits.gather(DIM, targets.unsqueeze(-1))
"""


@pytest.mark.parametrize("target", ["s + 1 : s + length + 1", "s + 1 : s + 1 + length", "1 + s : length + s + 1"])
def test_token_ids_of_a_window_gathered_along_the_positions(target):
    code = WINDOWS.replace("TARGET", target).replace("DIM", "1")
    assert codes(code) == ["GL004"]
    out = run(code)  # the ids (< 28) fit the 64 positions: no error, the wrong entries
    assert out.shape == (8, 64, 1)


@pytest.mark.parametrize("target", ["s + 1 : s + length + 1", "s - 2 + 3 : s + length + 1"])
def test_the_same_windows_gathered_along_the_vocabulary_are_silent(target):
    code = WINDOWS.replace("TARGET", target).replace("DIM", "2")
    assert codes(code) == []
    assert run(code).shape == (8, 64, 1)


def test_bounds_that_differ_by_more_than_one_term_give_no_length():
    from gather_lint.static.linear_terms import difference
    import ast
    upper, lower = ast.parse("s + k + j", mode="eval").body, ast.parse("s", mode="eval").body
    assert difference(upper, lower) is None
    upper, lower = ast.parse("2 * s + 5", mode="eval").body, ast.parse("2 * s + 1", mode="eval").body
    node, number = difference(upper, lower)
    assert node is None and number == 4
    upper, lower = ast.parse("-1", mode="eval").body, ast.parse("-c - 1", mode="eval").body
    node, number = difference(upper, lower)
    assert ast.unparse(node) == "c" and number == 0
