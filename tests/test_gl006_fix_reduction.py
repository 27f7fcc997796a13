"""GL006's squeeze is no safe fix when the code reduces the combination over a dim the squeezed result lacks:
`torch.sum(alpha * (1 - w), dim=[1, 2])` was written for the broadcast's [B, B, S], and with the gather squeezed it
raises. The finding stays (the [B, B, S] mixes every sample's weights); only the automatic fix is withheld. Each
claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import run_snippet

torch = pytest.importorskip("torch")

NUMERATOR = """
import torch

def true_positives(alpha, target, dist):
    # alpha: [B, C]  target: [B, S]  dist: [B, S]
    alpha_extended = alpha.unsqueeze(2).expand(-1, -1, target.size(1))
    alpha_extended = torch.gather(alpha_extended, dim=1, index=target.unsqueeze(1))
    return torch.sum(alpha_extended * (1.0 - dist), dim=[1, 2])

if __name__ == "__main__":
    torch.manual_seed(0)
    alpha, target, dist = torch.rand(3, 4), torch.randint(0, 4, (3, 5)), torch.rand(3, 5)
    OUT = true_positives(alpha, target, dist)
    EXPECTED = torch.stack([sum(alpha[b, target[b, s]] * (1 - dist[b, s]) for s in range(5)) for b in range(3)])
"""


def test_the_finding_stays_and_the_fix_is_withheld():
    found = lint(NUMERATOR)
    assert [(f.code, f.line) for f in found] == [("GL006", 7)]
    assert found[0].fix is None
    scope = run_snippet(NUMERATOR)
    assert scope["OUT"].shape == (3,) and not torch.allclose(scope["OUT"], scope["EXPECTED"])  # wrong, silently
    squeezed = NUMERATOR.replace("target.unsqueeze(1))\n", "target.unsqueeze(1)).squeeze(1)\n")
    with pytest.raises(IndexError, match="Dimension out of range"):
        run_snippet(squeezed)  # the squeeze alone breaks the reduction written for [B, B, S]


def test_a_reduction_the_squeezed_result_has_keeps_the_fix():
    code = NUMERATOR.replace("dim=[1, 2])", "dim=-1)")
    found = lint(code)
    assert [f.code for f in found] == ["GL006"]
    assert found[0].fix is not None
    assert run_snippet(code)["OUT"].shape == (3, 3)  # as written: every sample against every other
    fixed = code.replace("target.unsqueeze(1))\n", "target.unsqueeze(1)).squeeze(1)\n")
    scope = run_snippet(fixed)
    assert torch.allclose(scope["OUT"], scope["EXPECTED"])
