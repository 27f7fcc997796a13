"""`q = self.u(x_j - x_i) + self.c` with `self.u` a layer the analysis does not know and `self.c` a [heads]
parameter: q's rank is a guess (the unknown operand may have more dims), so `F.softmax(q, dim=1)` is no proof of
a dim out of range. torch runs it: the layer's output is [E, heads]."""
import pytest

from .conftest import lint
from .snippets import run_snippet

torch = pytest.importorskip("torch")

ATTENTION = """
import torch
import torch.nn.functional as F
from torch import Tensor
from torch.nn import Parameter


class Feast(torch.nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.u = torch.nn.LazyLinear(heads)  # a layer whose output the analysis does not model
        self.c = Parameter(torch.zeros(heads))

    def message(self, x_i: Tensor, x_j: Tensor, index: Tensor, out: Tensor) -> Tensor:
        q = self.u(x_j - x_i) + self.c
        q = F.softmax(q, dim=1)
        return out.index_add_(0, index, (x_j.view(x_j.size(0), self.heads, -1) * q.view(-1, self.heads, 1)).sum(dim=1))


if __name__ == "__main__":
    conv = Feast(8, 2)
    x_i, x_j = torch.randn(5, 8), torch.randn(5, 8)
    result = conv.message(x_i, x_j, torch.tensor([0, 1, 1, 2, 0]), torch.zeros(3, 4))
"""


def test_a_softmax_over_a_guessed_rank_is_not_reported():
    assert [v.code for v in lint(ATTENTION)] == []


def test_torch_runs_it():
    assert run_snippet(ATTENTION)["result"].shape == (3, 4)
