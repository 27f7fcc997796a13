"""GL029 across a helper: `masked_mean(x, mask, dim=1)` returns a per-row mean without its dim, on both of its
paths (`x.mean(dim)` when no mask is given, a masked sum over a masked count otherwise), and a caller that
subtracts it from x [batch, seq] lines the batch means up with the seq dim. Functions that reduce along a dim
without keepdim, and their callers, are analysed even where no gather/scatter-family op is named. Torch raises
on each reported form (batch != seq); the forms that keep the dim run."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

torch = pytest.importorskip("torch")

HELPER = '''
from typing import Optional

import torch
from torch import Tensor


def masked_mean(tensor: Tensor, mask: Optional[Tensor], dim: int = None) -> Tensor:
    if mask is None:
        return tensor.mean(dim=dim{keep})
    return (tensor * mask).sum(dim=dim{keep}) / mask.sum(dim=dim{keep})
'''

CALLERS = {
    "jaxtyping": '''
from jaxtyping import Bool, Float


def whiten(tensor: Float[Tensor, "batch seq"], mask: Bool[Tensor, "batch seq"], dim: int = 1):
    mean = masked_mean(tensor, mask, dim=dim)
    return tensor - mean


if __name__ == "__main__":
    out = whiten(torch.randn(4, 7), torch.ones(4, 7, dtype=torch.bool))
''',
    "driver sizes": '''

def whiten(tensor, mask):
    centred = tensor - masked_mean(tensor, mask, dim=1)
    return centred


if __name__ == "__main__":
    out = whiten(torch.randn(4, 7), torch.ones(4, 7))
''',
    "docstring": '''

def whiten(tensor, mask):
    """Whiten per sequence.

    Args:
        tensor: (batch, seq)
        mask: (batch, seq)
    """
    mean = masked_mean(tensor, mask, 1)
    return (tensor - mean) * mask
''',
}


@pytest.mark.parametrize("caller", list(CALLERS))
def test_a_helpers_reduction_without_keepdim_is_reported_where_it_meets_the_tensor(caller):
    code = textwrap.dedent(HELPER.replace("{keep}", "") + CALLERS[caller])
    assert [v.code for v in lint(code)] == ["GL029"], caller
    if "__main__" in code:
        with pytest.raises(RuntimeError, match="must match the size"):
            run_snippet(code)


@pytest.mark.parametrize("caller", list(CALLERS))
def test_the_helper_keeping_the_dim_is_silent(caller):
    code = textwrap.dedent(HELPER.replace("{keep}", ", keepdim=True") + CALLERS[caller])
    assert lint(code) == []
    if "__main__" in code:
        assert run_snippet(code)["out"].shape == (4, 7)
