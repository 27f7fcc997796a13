"""torch's argument parser takes NumPy's `axis=` for any `dim=`: `x.index_select(axis=0, index=i)`,
`torch.gather(x, axis=1, index=i)` and the scatter/index writes with `axis=` run in torch, so GL033 (arguments
the parser refuses) stays silent on them, and the call's dim is read from `axis=` like `dim=`. A Paddle-style
`x.index_select(i, axis=0)` still is refused: torch reads the index as the dim."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

torch = pytest.importorskip("torch")

AXIS_CALLS = """
import torch

x = torch.randn(4, 6)
idx = torch.tensor([0, 2])
cols = torch.zeros(4, 2, dtype=torch.long)
a = x.index_select(axis=0, index=idx)
b = torch.index_select(x, axis=1, index=idx)
c = x.gather(axis=1, index=cols)
d = torch.take_along_dim(x, cols, axis=1)
e = torch.zeros(4, 6).scatter_(axis=1, index=cols, value=1.0)
f = torch.zeros(6, 6).index_add_(axis=0, index=idx, source=x[:2])
g = torch.zeros(4, 6).scatter_add_(axis=1, index=cols, src=torch.ones(4, 2))
"""


def test_axis_keywords_are_not_refused_and_torch_runs_them():
    assert lint(AXIS_CALLS) == []
    scope = run_snippet(AXIS_CALLS)
    assert scope["a"].shape == (2, 6) and scope["b"].shape == (4, 2) and scope["c"].shape == (4, 2)


def test_the_dim_given_as_axis_is_checked_like_dim():
    code = "import torch\nx = torch.randn(4, 6)  # [B, V]\nout = x.gather(axis=2, index=torch.zeros(4, 1, dtype=torch.long))\n"
    assert [v.code for v in lint(code)] == ["GL002"]
    with pytest.raises(IndexError, match="Dimension out of range"):
        run_snippet(code)


def test_an_index_in_the_dims_place_beside_axis_is_still_refused():
    code = textwrap.dedent("""
    import torch

    def collect(beamed, active):
        return beamed.index_select(active, axis=0)

    out = collect(torch.randn(2, 3), torch.tensor([0]))
    """)
    (finding,) = lint(code)
    assert finding.code == "GL033" and "given by position and again by keyword" in finding.message
    with pytest.raises(TypeError, match="must be int, not Tensor"):
        run_snippet(code)
