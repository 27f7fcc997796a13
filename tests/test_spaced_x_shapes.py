"""Shapes written with a spaced x (`[B x S x H]`, `[B X S]`), as NumPy-style docstrings often give them."""
import pytest

from gather_lint.static.shape_text import parse_docstring, parse_group

from .conftest import codes
from .snippets import run_snippet

PICK = '''
import torch

def pick(scores, ids):
    """Scores of the given tokens.

    Parameters
    ----------
    scores : torch.Tensor
        Token scores, as a tensor of shape [B x L x V]
    ids : torch.Tensor
        Token ids, as a tensor of shape [B X L]
    """
    return scores.gather(-1, ids)

if __name__ == "__main__":
    pick(torch.randn(2, 3, 5), torch.randint(0, 5, (2, 3)))
'''


def test_spaced_x_groups_are_shapes():
    assert [str(d) for d in parse_group("[B x S x H]").dims] == ["B", "S", "H"]
    assert [str(d) for d in parse_group("(N X 3)").dims] == ["N", "3"]
    assert parse_group("[use x for]") is None  # prose, not sizes


def test_numpy_style_entries_with_spaced_x_give_shapes():
    found = parse_docstring(PICK.split('"""')[1], ["scores", "ids"])
    assert len(found["scores"][0].dims) == 3 and len(found["ids"][0].dims) == 2


def test_a_spaced_x_docstring_shape_decides_a_rank_mismatch(torch):
    assert codes(PICK) == ["GL001"]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        run_snippet(PICK)
