"""A helper declares its own size names (`x: (N, C)`, `y: (M, C)`, returning `(N, M)`); a caller that names its
tensors the other way round (`nodes: (M, 3)`, `points: (N, 3)`) and calls `helper(nodes, points)` gets back a
[M, N] tensor in its own words, not the callee's [N, M]. Read as written, the result was the transpose of the
truth: a correct `matching[point_to_node, point_indices]` was reported as a broadcast mismatch, and a wrong one
went unseen. Torch runs both programs: the first computes, the second raises the mismatch the finding names."""
import pytest

from .conftest import lint
from .snippets import run_snippet

torch = pytest.importorskip("torch")

# the caller's body, the same under both annotation styles
BODY = '''
    dist = pairwise_distance(nodes, points)
    point_to_node = dist.min(dim={dim})[1]
    matching = torch.zeros_like(dist, dtype=torch.bool)
    matching[point_to_node, torch.arange(points.shape[0])] = True
    return matching

if __name__ == "__main__":
    matching = assign(torch.rand(40, 3), torch.rand(8, 3))
'''

DOCSTRINGS = '''
import torch

def pairwise_distance(x, y):
    """Squared distances.

    Args:
        x (Tensor): (N, C)
        y (Tensor): (M, C)

    Returns:
        Tensor: (N, M)
    """
    return torch.cdist(x, y) ** 2

def assign(points, nodes):
    """Nearest node of every point.

    Args:
        points (Tensor): (N, 3)
        nodes (Tensor): (M, 3)
    """
''' + BODY

JAXTYPING = '''
import torch
from jaxtyping import Float
from torch import Tensor

def pairwise_distance(x: Float[Tensor, "n c"], y: Float[Tensor, "m c"]) -> Float[Tensor, "n m"]:
    return torch.cdist(x, y) ** 2

def assign(points: Float[Tensor, "n 3"], nodes: Float[Tensor, "m 3"]):
''' + BODY


@pytest.mark.parametrize("program", [DOCSTRINGS, JAXTYPING], ids=["docstrings", "jaxtyping"])
def test_the_helpers_result_is_read_in_the_callers_size_names(program):
    assert lint(program.replace("{dim}", "0")) == []


@pytest.mark.parametrize("program", [DOCSTRINGS, JAXTYPING], ids=["docstrings", "jaxtyping"])
def test_the_wrong_reduction_is_still_found(program):
    assert [v.code for v in lint(program.replace("{dim}", "1"))] == ["GL017"]


@pytest.mark.parametrize("program", [DOCSTRINGS, JAXTYPING], ids=["docstrings", "jaxtyping"])
def test_torch_runs_the_right_program_and_rejects_the_wrong_one(program):
    pytest.importorskip("jaxtyping")
    scope = run_snippet(program.replace("{dim}", "0"))
    assert scope["matching"].shape == (8, 40) and scope["matching"].sum() == 40  # one node per point
    with pytest.raises(IndexError, match="shape mismatch"):
        run_snippet(program.replace("{dim}", "1"))
