"""`torch.ones_like(t, dtype=...)` takes the keyword's dtype, not t's: with `dtype=h.dtype` of a tensor
whose dtype is not tracked the result's dtype is unknown, so a scatter of it into a float buffer is not a
dtype mismatch (GL016). Without the keyword it keeps t's dtype, and the int64 src is reported."""
import pytest

from .conftest import codes
from .snippets import run_snippet

DEGREE_LAYER = """
import torch
from torch import nn

class Degree(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.proj = nn.Linear(width, width)

    def forward(self, x, edges):
        h = self.proj(x)
        dst = edges[1]
        deg = torch.zeros(x.size(0)).scatter_add_(0, dst, torch.{src})
        return h / (deg + 1).unsqueeze(1)

if __name__ == "__main__":
    out = Degree(3)(torch.randn(5, 3), torch.randint(0, 5, (2, 8)))
"""

KEYWORD_DTYPE = DEGREE_LAYER.format(src="ones_like(dst, dtype=h.dtype)")
LITERAL_FLOAT = DEGREE_LAYER.format(src="ones_like(dst, dtype=torch.float32)")
NO_KEYWORD = DEGREE_LAYER.format(src="ones_like(dst)")


@pytest.mark.parametrize("code", [KEYWORD_DTYPE, LITERAL_FLOAT], ids=["dtype-of-a-tensor", "literal-float"])
def test_like_with_a_dtype_keyword_is_silent_and_runs(code, torch):
    assert "GL016" not in codes(code)
    assert run_snippet(code)["out"].shape == (5, 3)


def test_like_without_the_keyword_keeps_the_index_dtype(torch):
    assert "GL016" in codes(NO_KEYWORD)
    with pytest.raises(RuntimeError, match="Expected self.dtype to be equal to src.dtype"):
        run_snippet(NO_KEYWORD)


def test_full_like_takes_the_keyword_too(torch):
    code = NO_KEYWORD.replace("torch.ones_like(dst)", "torch.full_like(dst, 1, dtype=h.dtype)")
    assert "GL016" not in codes(code)
    assert run_snippet(code)["out"].shape == (5, 3)
